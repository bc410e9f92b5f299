import type { TFunction } from 'i18next';
import { isEngineError } from '../../../engine/api';

/** What a failed command shows: the engine's message (the server's, else the spec §8 fallback). */
export function errorText(error: unknown, t: TFunction): string {
  if (isEngineError(error)) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return t('common.unexpectedError');
}
