import { isEngineError } from '../../../engine/api';

/**
 * Whether a failed send's error is one a retry cannot change: a 4xx refusal (the text too long, the chat gone,
 * no right to write there). Not 401 (a new sign-in sends it), 408 or 429 (the engine retries those by itself),
 * and not a network or server failure (no status, 5xx). Such a send offers Edit and Discard, not Retry.
 */
export function failsForGood(error: unknown): boolean {
  if (!isEngineError(error)) return false;
  const { status } = error;
  return status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;
}
