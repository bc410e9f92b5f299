import { type IDBPDatabase, type IDBPTransaction, openDB } from 'idb';
import { type EngineStorage, type IndexKey, STORE_INDEXES, type StorageOp, type StoreName, type StoreTx, type TxMode } from './storage';

export const STORE_NAMES: readonly StoreName[] = [
  'session',
  'settings',
  'drafts',
  'countries',
  'conversations',
  'messages',
  'unread',
  'receipts',
  'outbox',
  'files',
  'communities',
  'history',
  'search',
  'postings',
  'meta',
];

/**
 * Raise when the stores change; `upgrade` below creates what a version adds (2: files, communities).
 * 3 adds no store: opening it stops the engines of builds from before the engine lease (issue 14), which
 * hold no lease and so cannot see a newer engine start; their store connection closes for the upgrade, they
 * stop and ask their tabs to reload. 4 adds history (pages trimmed off a chat's window, issue 11). 5 adds
 * search (the search index's documents, issue 13). 6 adds postings (the search index itself, kept instead
 * of rebuilt at every start, issue 24) and the search documents' indexes (by stid; by chat and time).
 */
export const SCHEMA_VERSION = 6;

export interface IdbStorageOptions {
  name?: string;
  version?: number;
  /**
   * A newer tab wants to upgrade the database: this connection has already closed itself so the upgrade
   * is not blocked, and the engine should ask its tabs to reload.
   */
  onVersionChange?: () => void;
  /**
   * The browser deleted the database under this connection (Clear site data closes it; another page's
   * deleteDatabase asks it to close, which it does at once): everything stored is gone (reopeningStorage.ts).
   */
  onLost?: () => void;
}

/** The engine's store in IndexedDB (through idb): one object store per StoreName, out-of-line string keys. */
export class IdbStorage implements EngineStorage {
  private constructor(private readonly db: IDBPDatabase) {}

  static async open(options: IdbStorageOptions = {}): Promise<IdbStorage> {
    const db = await openDB(options.name ?? 'messenger-engine', options.version ?? SCHEMA_VERSION, {
      upgrade(database, _old, _new, transaction) {
        for (const name of STORE_NAMES) {
          if (!database.objectStoreNames.contains(name)) database.createObjectStore(name);
        }
        for (const [name, indexes] of Object.entries(STORE_INDEXES)) {
          const store = transaction.objectStore(name);
          for (const [index, keyPath] of Object.entries(indexes)) {
            if (!store.indexNames.contains(index)) store.createIndex(index, keyPath as string | string[]);
          }
        }
      },
      blocking(_current, blocked, event) {
        (event.target as IDBDatabase).close();
        // No next version: a deleteDatabase, not an upgrade.
        if (blocked === null) options.onLost?.();
        else options.onVersionChange?.();
      },
      terminated() {
        options.onLost?.();
      },
    });
    return new IdbStorage(db);
  }

  async get<T>(store: StoreName, key: string): Promise<T | undefined> {
    return (await this.db.get(store, key)) as T | undefined;
  }

  async getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]> {
    const tx = this.db.transaction(store, 'readonly');
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    await tx.done;
    return keys.map((key, i) => ({ key: String(key), value: values[i] as T }));
  }

  async writeBatch(ops: readonly StorageOp[]): Promise<void> {
    if (ops.length === 0) return;
    const stores = [...new Set(ops.map((op) => op.store))];
    const tx = this.db.transaction(stores, 'readwrite');
    // The transaction's outcome is read from tx.done; each request's own promise only needs settling.
    const settle = (request: Promise<unknown>) => void request.catch(() => undefined);
    try {
      // Requests are queued in order on one transaction; IndexedDB runs them in that order.
      for (const op of ops) {
        const store = tx.objectStore(op.store);
        if (op.type === 'put') settle(store.put(op.value, op.key));
        else if (op.type === 'delete') settle(store.delete(op.key));
        else settle(store.clear());
      }
    } catch (error) {
      // A value that cannot be cloned throws synchronously: abort, so nothing of the batch is kept.
      tx.abort();
      await tx.done.catch(() => undefined);
      throw error;
    }
    await tx.done;
  }

  async transact<T>(stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>): Promise<T> {
    // Typed as writable so `put` exists; IndexedDB itself refuses a write in a read-only transaction.
    const tx = this.db.transaction([...stores], mode) as IDBPTransaction<unknown, string[], 'readwrite'>;
    const settle = (request: Promise<unknown>) => void request.catch(() => undefined);
    const range = (lower: IndexKey, upper: IndexKey) => IDBKeyRange.bound(lower, upper);
    const view: StoreTx = {
      get: async <V>(store: StoreName, key: string) => (await tx.objectStore(store).get(key)) as V | undefined,
      getRange: async <V>(store: StoreName, lower: string, upper: string) => (await tx.objectStore(store).getAll(range(lower, upper))) as V[],
      getPage: async <V>(store: StoreName, after: string | null, count: number) => {
        const from = after === null ? null : IDBKeyRange.lowerBound(after, true);
        const s = tx.objectStore(store);
        const [keys, values] = await Promise.all([s.getAllKeys(from, count), s.getAll(from, count)]);
        return keys.map((key, i) => ({ key: String(key), value: values[i] as V }));
      },
      indexKeys: async (store, index, lower, upper, limit) =>
        (await tx.objectStore(store).index(index).getAllKeys(range(lower, upper), limit)).map(String),
      indexCount: (store, index, lower, upper) => tx.objectStore(store).index(index).count(range(lower, upper)),
      put: (store, key, value) => settle(tx.objectStore(store).put(value, key)),
      delete: (store, key) => settle(tx.objectStore(store).delete(key)),
      clear: (store) => settle(tx.objectStore(store).clear()),
    };
    try {
      const result = await work(view);
      await tx.done;
      return result;
    } catch (error) {
      // Nothing of a failed read-modify-write is kept (it may have finished already: then there is nothing to undo).
      try {
        tx.abort();
      } catch {
        // already finished
      }
      await tx.done.catch(() => undefined);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
