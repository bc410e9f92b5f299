import type { WriteBatch } from '../storage/batchedWriter';
import type { EngineStorage, StorageOp } from '../storage/storage';
import type { SearchDoc } from './documents';

/**
 * The `search` store (issue 13): the indexed documents, one record each. Their writes go with the state's
 * batch (`takeOps`, through LiveState's `extraOps`), so a message and its document are stored in the same
 * transaction and a burst of events stays one write. The inverted index itself is rebuilt from them at
 * start (in slices): a serialised MiniSearch would be rewritten whole on every new message.
 */
export class SearchStore {
  /** Keys changed since the last committed write, with a version so a change made during a write is kept. */
  private readonly dirty = new Map<string, number>();
  private clearVersion = 0;
  private clearedAt = 0;
  private version = 0;

  constructor(
    private readonly storage: EngineStorage,
    private readonly current: (key: string) => SearchDoc | undefined,
    /** Asks the state's writer for a batch (LiveState.schedulePersist). */
    private readonly schedule: () => void,
  ) {}

  async load(): Promise<SearchDoc[]> {
    const rows = await this.storage.getAll<SearchDoc>('search');
    return rows.map((r) => r.value).filter((d) => typeof d?.key === 'string' && typeof d.text === 'string');
  }

  changed(keys: Iterable<string>): void {
    for (const key of keys) this.dirty.set(key, ++this.version);
    this.schedule();
  }

  /** Everything goes (sign-out, another user); what was waiting to be written goes with it. */
  cleared(): void {
    this.dirty.clear();
    this.clearVersion = ++this.version;
    this.schedule();
  }

  /** The writes that bring the store up to date, for the state's next batch. */
  takeOps(): WriteBatch {
    const taken = [...this.dirty];
    const clear = this.clearVersion > this.clearedAt ? this.clearVersion : 0;
    if (taken.length === 0 && clear === 0) return { ops: [] };
    const ops: StorageOp[] = clear ? [{ store: 'search', type: 'clear' }] : [];
    for (const [key] of taken) {
      const doc = this.current(key);
      ops.push(doc ? { store: 'search', type: 'put', key, value: doc } : { store: 'search', type: 'delete', key });
    }
    return {
      ops,
      written: () => {
        if (clear) this.clearedAt = Math.max(this.clearedAt, clear);
        for (const [key, version] of taken) if (this.dirty.get(key) === version) this.dirty.delete(key);
      },
    };
  }
}
