import type { EngineClock } from './clock';
import type { EngineStorage, StorageOp } from './storage/storage';

/** Writes of a burst of changes are gathered this long, then written in one transaction. */
export const PERSIST_DELAY_MS = 50;

export interface BatchedWriterOptions {
  storage: EngineStorage;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** What the log says when a write fails (the data stays in memory and goes with the next write). */
  failure: string;
  /** The operations that bring storage up to date; called when the batch is written. */
  collect: () => StorageOp[];
}

/**
 * Write-behind persistence: `schedule()` after a change, and PERSIST_DELAY_MS later everything that
 * changed since goes to storage in one batch. Writes run one after another, never overlapping.
 */
export class BatchedWriter {
  private timer: unknown = null;
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly options: BatchedWriterOptions) {}

  schedule(): void {
    if (this.timer !== null) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      this.write();
    }, PERSIST_DELAY_MS);
  }

  /** Writes a scheduled batch now, and resolves when every write so far is done. */
  async flush(): Promise<void> {
    if (this.timer !== null) {
      this.cancel();
      this.write();
    }
    await this.pending;
  }

  /** Drops a scheduled batch without writing it. */
  cancel(): void {
    if (this.timer === null) return;
    this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private write(): void {
    const ops = this.options.collect();
    if (ops.length === 0) return;
    const { storage, log, failure } = this.options;
    this.pending = this.pending.then(() => storage.writeBatch(ops)).catch((error: unknown) => log(failure, error));
  }
}
