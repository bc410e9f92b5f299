import type { EngineClock } from '../engine/clock';

/** The second reconnect in a row waits this long; each one after it waits twice as long as the one before. */
export const FIRST_BACKOFF_MS = 250;
/** No reconnect waits longer than this. */
export const MAX_BACKOFF_MS = 30_000;
/** A connection that lived this long was a good one: the next loss reconnects at once again. */
export const STABLE_AFTER_MS = 10_000;

/**
 * How long a tab waits before it connects to its engine again (docs/ui.md, "Site data cleared"). The first
 * loss reconnects at once (a killed worker is replaced in milliseconds, tests/e2e/engine-killed.test.ts);
 * connections that keep dying soon after they were made (a worker that cannot start) are retried ever more
 * slowly, up to MAX_BACKOFF_MS, instead of hundreds of times a second.
 */
export class ReconnectBackoff {
  private failures = 0;
  /** When the last reconnect was (or is due to be) made. */
  private lastAt = -Infinity;

  constructor(private readonly clock: Pick<EngineClock, 'now'>) {}

  /** The wait before the reconnect that is due now. */
  next(): number {
    const now = this.clock.now();
    if (now - this.lastAt >= STABLE_AFTER_MS) this.failures = 0;
    const delay = this.failures === 0 ? 0 : Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** (this.failures - 1));
    this.failures += 1;
    this.lastAt = now + delay;
    return delay;
  }
}
