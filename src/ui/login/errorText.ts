import { isEngineError } from '../../engine/api';

/**
 * What a failed login call shows: the server's own message when it sent one, else the translated spec §8
 * text (the engine's fallback is English only), and the retry hint when no answer came at all.
 */
export function errorText(error: unknown, fallback: string, noAnswer: string = fallback): string {
  if (!isEngineError(error)) return fallback;
  if (error.status === 0) return noAnswer;
  return error.message === error.fallback ? fallback : error.message;
}
