/**
 * How long a number refused more PIN requests waits (issue 23): the limit counts requests in a sliding
 * window, so asking again succeeds once the oldest request that still counts towards the limit leaves it.
 */

/** Seconds until `oldestCounted + windowMs` (at least 1: the answer never says "try again now"). */
export function pinRequestWaitSeconds(oldestCounted: number, windowMs: number, now: number): number {
  return Math.max(1, Math.ceil((oldestCounted + windowMs - now) / 1000));
}

/**
 * The wait in words, whole minutes rounded up ("1 minute", "12 minutes"): a time shorter than the one
 * said could fail again, a longer one only costs a little patience. messages.sv.ts translates the words.
 */
export function pinRequestWaitWords(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
