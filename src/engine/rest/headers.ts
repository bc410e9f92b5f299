import {
  HEADER_AUTH_TOKEN,
  HEADER_CLIENT_PROJECT,
  HEADER_CLIENT_TOKEN,
  HEADER_CLIENT_VERSION,
  HEADER_FEATURES,
} from '../../protocol/api';
import { CLIENT_VERSION, X_FEATURES } from '../../protocol/constants';
import type { Language } from '../contract/types';

/** Our Client-Project value: spec §7 names the header, not its value. */
export const CLIENT_PROJECT = 'messenger-web';

/** Asks the server for its messages in a language (design.md "Server texts"; docs/server.md "Languages"). */
export const HEADER_ACCEPT_LANGUAGE = 'Accept-Language';

/**
 * The headers of spec §7 that go on every call. `clientToken` is the stable random id of this engine
 * install; `authToken` is sent when signed in. `language` (the one the user chose, else the one the tabs
 * show) goes as Accept-Language so the server's messages come in it; without one the browser sends its own.
 */
export function apiHeaders(
  clientToken: string,
  authToken: string | null,
  language: Language | null = null,
): Record<string, string> {
  const headers: Record<string, string> = {
    [HEADER_CLIENT_TOKEN]: clientToken,
    [HEADER_CLIENT_VERSION]: String(CLIENT_VERSION),
    [HEADER_CLIENT_PROJECT]: CLIENT_PROJECT,
    [HEADER_FEATURES]: String(X_FEATURES),
  };
  if (authToken) headers[HEADER_AUTH_TOKEN] = authToken;
  if (language) headers[HEADER_ACCEPT_LANGUAGE] = language;
  return headers;
}
