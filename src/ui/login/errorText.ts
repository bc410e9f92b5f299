import type { TFunction } from 'i18next';
import { isEngineError } from '../../engine/api';
import { errorText as commonErrorText } from '../common/errorText';

/**
 * What a failed login call shows: the screen's own translated text when the server gave no message (the
 * engine's fallback is English only), the retry hint when no answer came at all, and a message the server
 * did send through the common rule (a spec §8 text translated, any other as the server wrote it).
 */
export function errorText(error: unknown, t: TFunction, fallback: string, noAnswer: string = fallback): string {
  if (!isEngineError(error)) return fallback;
  if (error.status === 0) return noAnswer;
  return error.message === error.fallback ? fallback : commonErrorText(error, t);
}
