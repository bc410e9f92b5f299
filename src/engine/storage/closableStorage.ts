import type { EngineStorage, StorageOp, StoreName, StoreTx, TxMode } from './storage';

/**
 * The store as one engine uses it: once that engine has stopped, it writes nothing more (issue 14: another
 * engine may own the store by then), whatever answer or timer of the old one comes late. Reads still work.
 */
export class ClosableStorage implements EngineStorage {
  private closed = false;

  constructor(private readonly inner: EngineStorage) {}

  /** From now on every write is refused (the inner store stays open: it may be shared). */
  refuseWrites(): void {
    this.closed = true;
  }

  get<T>(store: StoreName, key: string): Promise<T | undefined> {
    return this.inner.get<T>(store, key);
  }

  getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]> {
    return this.inner.getAll<T>(store);
  }

  writeBatch(ops: readonly StorageOp[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('this engine has stopped: it writes nothing more'));
    return this.inner.writeBatch(ops);
  }

  transact<T>(stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>): Promise<T> {
    if (this.closed && mode === 'readwrite') return Promise.reject(new Error('this engine has stopped: it writes nothing more'));
    return this.inner.transact(stores, mode, work);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
