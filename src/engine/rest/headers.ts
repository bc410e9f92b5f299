import {
  HEADER_AUTH_TOKEN,
  HEADER_CLIENT_PROJECT,
  HEADER_CLIENT_TOKEN,
  HEADER_CLIENT_VERSION,
  HEADER_FEATURES,
} from '../../protocol/api';
import { CLIENT_VERSION, X_FEATURES } from '../../protocol/constants';

/** Our Client-Project value: spec §7 names the header, not its value. */
export const CLIENT_PROJECT = 'messenger-web';

/**
 * The headers of spec §7 that go on every call. `clientToken` is the stable random id of this engine
 * install; `authToken` is sent when signed in.
 */
export function apiHeaders(clientToken: string, authToken: string | null): Record<string, string> {
  const headers: Record<string, string> = {
    [HEADER_CLIENT_TOKEN]: clientToken,
    [HEADER_CLIENT_VERSION]: String(CLIENT_VERSION),
    [HEADER_CLIENT_PROJECT]: CLIENT_PROJECT,
    [HEADER_FEATURES]: String(X_FEATURES),
  };
  if (authToken) headers[HEADER_AUTH_TOKEN] = authToken;
  return headers;
}
