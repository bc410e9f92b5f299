/** The longest wait taken from a Retry-After: a wrong header must not hold the outbox for days. */
export const RETRY_AFTER_MAX_MS = 60 * 60 * 1000;

/**
 * A `Retry-After` of delta-seconds (what the reference server sends with a 429) in ms, at most
 * RETRY_AFTER_MAX_MS; undefined when there is none or it is an HTTP date (read by the caller's back-off instead).
 */
export function retryAfterMs(value: string | null | undefined): number | undefined {
  if (typeof value !== 'string' || !/^\s*\d{1,9}\s*$/.test(value)) return undefined;
  return Math.min(RETRY_AFTER_MAX_MS, Number(value) * 1000);
}
