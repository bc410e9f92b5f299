import type { EngineClock } from '../clock';
import type { EngineStorage, StorageOp } from './storage';

/** Writes of a burst of changes are gathered this long, then written in one transaction. */
export const PERSIST_DELAY_MS = 50;
/** A write that failed (an aborted transaction) is tried again this much later, with whatever changed since. */
export const PERSIST_RETRY_MS = 5_000;

/** One write: its operations, and what its owner does once they are in storage. */
export interface WriteBatch {
  ops: StorageOp[];
  /** Called only after the transaction committed: the owner moves its "what storage holds" baseline here. */
  written?: () => void;
}

export interface BatchedWriterOptions {
  storage: EngineStorage;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** What the log says when a write fails (the data stays in memory and goes with the next write). */
  failure: string;
  /**
   * The operations that bring storage up to date, computed against what storage is known to hold. Called
   * when the batch is written, after every earlier write has finished, so a failed one is included again.
   */
  collect: () => WriteBatch;
}

/**
 * Write-behind persistence: `schedule()` after a change, and PERSIST_DELAY_MS later everything that
 * changed since goes to storage in one batch. Writes run one after another, never overlapping. A failed
 * write leaves its owner's baseline where it was, so the next write carries its changes again.
 */
export class BatchedWriter {
  private timer: unknown = null;
  private pending: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly options: BatchedWriterOptions) {}

  schedule(delayMs = PERSIST_DELAY_MS): void {
    // A stopped owner writes nothing more by itself: another engine may own the store by now (issue 14).
    if (this.timer !== null || this.stopped) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      this.write();
    }, delayMs);
  }

  /** Writes what changed now (scheduled or not), and resolves when every write so far is done. */
  async flush(): Promise<void> {
    this.cancel();
    this.write();
    await this.pending;
  }

  /** Drops a scheduled batch without writing it. */
  cancel(): void {
    if (this.timer === null) return;
    this.options.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** The owner is going away: nothing is scheduled or retried by a timer any more (`flush` still writes). */
  stop(): void {
    this.stopped = true;
  }

  private write(): void {
    const { storage, log, failure, collect } = this.options;
    this.pending = this.pending.then(async () => {
      const batch = collect();
      if (batch.ops.length === 0) return;
      try {
        await storage.writeBatch(batch.ops);
      } catch (error) {
        log(failure, error);
        // Nothing else may change for a while (the last event id of a quiet socket): try again by itself.
        if (!this.stopped) this.schedule(PERSIST_RETRY_MS);
        return;
      }
      batch.written?.();
    });
  }
}
