import type { EngineClock } from '../clock';
import type { EngineStorage, StorageOp } from './storage';

/** Writes of a burst of changes are gathered this long, then written in one transaction. */
export const PERSIST_DELAY_MS = 50;
/**
 * A stream of changes that goes on (1,000 messages within a second, a long socket replay) is gathered this
 * long instead, once STREAM_WRITES writes came each within STREAM_GAP_MS of the last: a second of it costs a
 * handful of transactions, not twenty (issue 11). What waits is only state the server can replay: the last
 * event id is written with it, and the outbox writes by itself.
 */
export const PERSIST_STREAM_DELAY_MS = 250;
const STREAM_GAP_MS = 2 * PERSIST_DELAY_MS;
const STREAM_WRITES = 3;
/** A write that failed (an aborted transaction) is tried again this much later, with whatever changed since. */
export const PERSIST_RETRY_MS = 5_000;

/** One write: its operations, and what its owner does once they are in storage. */
export interface WriteBatch {
  ops: StorageOp[];
  /** Called only after the transaction committed: the owner moves its "what storage holds" baseline here. */
  written?: () => void;
  /** Called when the transaction failed (nothing of it is stored). */
  failed?: () => void;
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
  /** When the last write started, and how many writes in a row came within STREAM_GAP_MS of each other. */
  private lastWriteAt = Number.NEGATIVE_INFINITY;
  private streak = 0;

  constructor(private readonly options: BatchedWriterOptions) {}

  schedule(delayMs?: number): void {
    // A stopped owner writes nothing more by itself: another engine may own the store by now (issue 14).
    if (this.timer !== null || this.stopped) return;
    const { clock } = this.options;
    const streaming = this.streak >= STREAM_WRITES && clock.now() - this.lastWriteAt <= STREAM_GAP_MS;
    this.timer = clock.setTimeout(() => {
      this.timer = null;
      this.write();
    }, delayMs ?? (streaming ? PERSIST_STREAM_DELAY_MS : PERSIST_DELAY_MS));
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
    const { storage, log, failure, collect, clock } = this.options;
    this.pending = this.pending.then(async () => {
      const batch = collect();
      if (batch.ops.length === 0) return;
      // Writes of one stream come within the gap of each other, or within the longer delay once it streams.
      const now = clock.now();
      this.streak = now - this.lastWriteAt <= STREAM_GAP_MS + PERSIST_STREAM_DELAY_MS ? this.streak + 1 : 1;
      this.lastWriteAt = now;
      try {
        await storage.writeBatch(batch.ops);
      } catch (error) {
        log(failure, error);
        batch.failed?.();
        // Nothing else may change for a while (the last event id of a quiet socket): try again by itself.
        if (!this.stopped) this.schedule(PERSIST_RETRY_MS);
        return;
      }
      batch.written?.();
    });
  }
}
