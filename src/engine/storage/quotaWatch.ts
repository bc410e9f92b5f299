import { BehaviorSubject, distinctUntilChanged, type Observable } from 'rxjs';
import type { EngineStorage, StorageOp, StoreName, StoreTx, TxMode } from './storage';
import type { StorageStatus } from '../contract/types';

/** IndexedDB refuses a write over the origin's quota with this error (a DOMException, also as a transaction's error). */
export function isQuotaError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'QuotaExceededError';
}

/**
 * Writes `ops`; on a full store (issue 12) the change lives on in memory only, and its writer goes on: the
 * user's choices and unsent messages are not refused for want of space (the storage notice says so).
 */
export async function writeUnlessFull(storage: EngineStorage, ops: readonly StorageOp[]): Promise<void> {
  try {
    await storage.writeBatch(ops);
  } catch (error) {
    if (!isQuotaError(error)) throw error;
  }
}

/** The engine's store with an eye on its quota: every refused write is still an error for its writer. */
export class QuotaWatchStorage implements EngineStorage {
  private readonly status$ = new BehaviorSubject<StorageStatus>('ok');

  constructor(private readonly inner: EngineStorage) {}

  get status(): Observable<StorageStatus> {
    return this.status$.pipe(distinctUntilChanged());
  }

  get<T>(store: StoreName, key: string): Promise<T | undefined> {
    return this.inner.get<T>(store, key);
  }

  getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]> {
    return this.inner.getAll<T>(store);
  }

  async writeBatch(ops: readonly StorageOp[]): Promise<void> {
    try {
      await this.inner.writeBatch(ops);
    } catch (error) {
      if (isQuotaError(error)) this.status$.next('full');
      throw error;
    }
    // Deletes commit even on a full store; only a write that adds data shows there is room again.
    if (ops.some((op) => op.type === 'put')) this.status$.next('ok');
  }

  async transact<T>(stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>): Promise<T> {
    try {
      return await this.inner.transact(stores, mode, work);
    } catch (error) {
      if (isQuotaError(error)) this.status$.next('full');
      throw error;
    }
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
