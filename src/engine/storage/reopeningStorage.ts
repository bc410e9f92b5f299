import { engineError } from '../errors';
import { type EngineStorage, MemoryStorage, type StorageOp, type StoreName, type StoreTx, type TxMode } from './storage';

/**
 * What a call on a store the browser deleted fails with: an EngineError whose text the UI translates
 * (`errorText`), never IndexedDB's own words ("The database connection is closing").
 */
export const STORE_CLEARED = "This browser's data was cleared";

/** Opens the engine's database; `onLost` runs when the browser deletes it under the open connection. */
export type OpenStore = (onLost: () => void) => Promise<EngineStorage>;

/** IndexedDB refuses a transaction on a connection the browser is closing (its database was deleted). */
function isClosingError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'InvalidStateError';
}

/**
 * The engine's store, which outlives its database (docs/ui.md, "Site data cleared"). When the browser deletes
 * the database under the engine (Clear site data, or another page's deleteDatabase), the connection closes
 * and the store tells `lost`: a fresh, empty database is opened in its place, and `onReplaced` runs once
 * it is there, so the engine can end the session (the token was in the old one) and go on working on the
 * new one (login, settings). Calls made meanwhile wait for the new store; a call that was on the lost one
 * fails with STORE_CLEARED.
 */
export class ReopeningStorage implements EngineStorage {
  private current: Promise<EngineStorage>;
  /** Counts the stores lost: a loss reported twice, or by a store already replaced, opens nothing. */
  private generation = 0;
  private onReplaced: () => void = () => undefined;

  private constructor(
    first: EngineStorage,
    private readonly openStore: OpenStore,
  ) {
    this.current = Promise.resolve(first);
  }

  /** Opens the first store; a failure to open it is the caller's (startEngine falls back to memory). */
  static async open(openStore: OpenStore): Promise<ReopeningStorage> {
    let storage: ReopeningStorage | null = null;
    let lostWhileOpening = false;
    const first = await openStore(() => {
      if (storage) storage.lost(0);
      else lostWhileOpening = true;
    });
    const opened: ReopeningStorage = (storage = new ReopeningStorage(first, openStore));
    if (lostWhileOpening) opened.lost(0);
    return opened;
  }

  /** Who hears that the store was replaced by an empty one (the engine, once it exists). */
  whenReplaced(listener: () => void): void {
    this.onReplaced = listener;
  }

  /** The store of `generation` is gone: open the next one in its place (once). */
  private lost(generation: number): void {
    if (generation !== this.generation) return;
    const next = ++this.generation;
    const gone = this.current;
    this.current = gone
      .then((store) => store.close().catch(() => undefined))
      .then(() => this.openStore(() => this.lost(next)))
      // No database at all now (the browser refuses to make one): the engine still works, forgetting on close.
      .catch((): EngineStorage => new MemoryStorage());
    void this.current.then(() => {
      if (this.generation === next) this.onReplaced();
    });
  }

  /** Runs `work` on the current store; a failure caused by losing it says so in the engine's words. */
  private async use<T>(work: (store: EngineStorage) => Promise<T>): Promise<T> {
    const generation = this.generation;
    const store = await this.current;
    try {
      return await work(store);
    } catch (error) {
      if (generation === this.generation && !isClosingError(error)) throw error;
      // The close event may come after the refusal: the refusal itself says the database is going.
      this.lost(generation);
      throw engineError('storage', 0, null, STORE_CLEARED);
    }
  }

  get<T>(store: StoreName, key: string): Promise<T | undefined> {
    return this.use((s) => s.get<T>(store, key));
  }

  getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]> {
    return this.use((s) => s.getAll<T>(store));
  }

  writeBatch(ops: readonly StorageOp[]): Promise<void> {
    return this.use((s) => s.writeBatch(ops));
  }

  transact<T>(stores: readonly StoreName[], mode: TxMode, work: (tx: StoreTx) => Promise<T>): Promise<T> {
    return this.use((s) => s.transact(stores, mode, work));
  }

  async close(): Promise<void> {
    await (await this.current).close();
  }
}
