import { isEngineError } from '../../engine/api';

/** What an engine call's failure shows: the server's message or the spec §8 fallback, else a generic text. */
export function errorText(error: unknown, t: (key: string) => string): string {
  return isEngineError(error) ? error.message : t('chatSettings.unexpectedError');
}
