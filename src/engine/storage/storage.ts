import { memoryTransact } from './memoryTx';

/**
 * The engine's persistent store behind one small interface (design.md §5): IndexedDB in the worker, a Map
 * in Node tests. Records are plain data, grouped in named stores; `writeBatch` applies many puts and
 * deletes in one transaction, so a burst of socket events costs one write, not one per message.
 */
export type StoreName =
  | 'session'
  | 'settings'
  | 'drafts'
  | 'countries'
  | 'conversations'
  | 'messages'
  | 'unread'
  | 'receipts'
  | 'outbox'
  /** The bytes of outbox attachments (Blobs), by the entry's localId, kept apart from the small entries. */
  | 'files'
  /** The state's communities, channels and post participants, one record (spec §3 "Communities store", persistence.ts). */
  | 'communities'
  /** Pages trimmed off a chat's window, until the reader comes back to them (issue 11). */
  | 'history'
  /** The search index's documents (issue 13): the text of what the engine has seen, kept for search. */
  | 'search'
  /** The search index's posting lists and numbering (issue 24, search/postingIndex.ts). */
  | 'postings'
  | 'meta';

export type StorageOp =
  | { store: StoreName; type: 'put'; key: string; value: unknown }
  | { store: StoreName; type: 'delete'; key: string }
  | { store: StoreName; type: 'clear' };

export interface EngineStorage {
  get<T>(store: StoreName, key: string): Promise<T | undefined>;
  getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]>;
  writeBatch(ops: readonly StorageOp[]): Promise<void>;
  /**
   * Runs `work` in one transaction over `stores`, for a read-modify-write (the search index): its writes
   * are kept only if it resolves. `work` must await nothing but the transaction's own requests.
   */
  transact<T>(stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type TxMode = 'readonly' | 'readwrite';

/** An index's key as IndexedDB orders it: numbers before strings before arrays (compared item by item). */
export type IndexKey = number | string | readonly IndexKey[];

/** One transaction's reads and writes (`EngineStorage.transact`). */
export interface StoreTx {
  get<T>(store: StoreName, key: string): Promise<T | undefined>;
  /** The values of the keys from `lower` to `upper`, both included, in key order. */
  getRange<T>(store: StoreName, lower: string, upper: string): Promise<T[]>;
  /** Up to `count` records after the key `after` (from the first when null), in key order. */
  getPage<T>(store: StoreName, after: string | null, count: number): Promise<{ key: string; value: T }[]>;
  /** The keys of the records whose `index` (STORE_INDEXES) lies from `lower` to `upper`, in index order. */
  indexKeys(store: StoreName, index: string, lower: IndexKey, upper: IndexKey, limit?: number): Promise<string[]>;
  indexCount(store: StoreName, index: string, lower: IndexKey, upper: IndexKey): Promise<number>;
  put(store: StoreName, key: string, value: unknown): void;
  delete(store: StoreName, key: string): void;
  clear(store: StoreName): void;
}

/**
 * The stores' indexes, by name, with the record fields they are on. `search`: a message by its stid (a
 * delete may name only that), a chat's documents oldest first and a channel's (leaving a chat, trimming its
 * history; a record is in the one of the two whose field is set, IndexedDB leaves it out of the other), and
 * every document oldest first (the one-time build numbers them in time order). Only fields version 5's
 * documents already had: an index on a field they lack would not see them until the build rewrote them.
 */
export const STORE_INDEXES: Partial<Record<StoreName, Record<string, string | readonly string[]>>> = {
  search: {
    stid: 'stid',
    chat: ['conversationId', 'createdAt', 'id'],
    channel: ['channelId', 'createdAt', 'id'],
    time: ['createdAt', 'id', 'key'],
  },
};

/** A Map-backed store for tests and for environments without IndexedDB; values are cloned like IndexedDB does. */
export class MemoryStorage implements EngineStorage {
  private readonly stores = new Map<StoreName, Map<string, unknown>>();
  /** How many batches were written: tests use it to check that a burst is one transaction. */
  batches = 0;
  /** How many write transactions `transact` ran (the search index's), counted apart from the batches. */
  transactions = 0;

  private store(name: StoreName): Map<string, unknown> {
    let s = this.stores.get(name);
    if (!s) {
      s = new Map();
      this.stores.set(name, s);
    }
    return s;
  }

  async get<T>(store: StoreName, key: string): Promise<T | undefined> {
    const value = this.store(store).get(key);
    return value === undefined ? undefined : (structuredClone(value) as T);
  }

  async getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]> {
    return [...this.store(store).entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, value]) => ({ key, value: structuredClone(value) as T }));
  }

  async writeBatch(ops: readonly StorageOp[]): Promise<void> {
    if (ops.length === 0) return;
    // Clone first, so a value that cannot be stored fails the whole batch before anything changes.
    const cloned = ops.map((op) => (op.type === 'put' ? { ...op, value: structuredClone(op.value) } : op));
    for (const op of cloned) {
      if (op.type === 'put') this.store(op.store).set(op.key, op.value);
      else if (op.type === 'delete') this.store(op.store).delete(op.key);
      else this.store(op.store).clear();
    }
    this.batches += 1;
  }

  async transact<T>(_stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>): Promise<T> {
    const result = await memoryTransact((name) => this.store(name), mode, work, STORE_INDEXES);
    if (mode === 'readwrite') this.transactions += 1;
    return result;
  }

  async close(): Promise<void> {}
}
