import type { EngineClock } from '../engine/clock';

/** A message is written at most this many times per LOG_WINDOW_MS. */
export const LOG_LIMIT = 3;
export const LOG_WINDOW_MS = 60_000;

export type Log = (message: string, ...detail: unknown[]) => void;

/**
 * `write`, with each message (its text, not its details) written at most LOG_LIMIT times per LOG_WINDOW_MS
 * (docs/ui.md, "Site data cleared"): a fault that repeats (a worker that keeps dying, a write that keeps
 * failing) must not fill the console. The last one written says that repeats are held back; the first one
 * of the next window says how many were.
 */
export function rateLimitedLog(write: Log, clock: Pick<EngineClock, 'now'>, limit = LOG_LIMIT, windowMs = LOG_WINDOW_MS): Log {
  const seen = new Map<string, { since: number; count: number; held: number }>();
  return (message, ...detail) => {
    const now = clock.now();
    let entry = seen.get(message);
    let text = message;
    if (!entry || now - entry.since >= windowMs) {
      if (entry && entry.held > 0) text = `${message} (${entry.held} more of these were not logged)`;
      entry = { since: now, count: 0, held: 0 };
      seen.set(message, entry);
    }
    entry.count += 1;
    if (entry.count > limit) {
      entry.held += 1;
      return;
    }
    write(entry.count === limit ? `${text} (repeats are not logged for a minute)` : text, ...detail);
  };
}
