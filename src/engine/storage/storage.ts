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
  | 'meta';

export type StorageOp =
  | { store: StoreName; type: 'put'; key: string; value: unknown }
  | { store: StoreName; type: 'delete'; key: string }
  | { store: StoreName; type: 'clear' };

export interface EngineStorage {
  get<T>(store: StoreName, key: string): Promise<T | undefined>;
  getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]>;
  writeBatch(ops: readonly StorageOp[]): Promise<void>;
  close(): Promise<void>;
}

/** A Map-backed store for tests and for environments without IndexedDB; values are cloned like IndexedDB does. */
export class MemoryStorage implements EngineStorage {
  private readonly stores = new Map<StoreName, Map<string, unknown>>();
  /** How many batches were written: tests use it to check that a burst is one transaction. */
  batches = 0;

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

  async close(): Promise<void> {}
}
