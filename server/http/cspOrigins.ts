/**
 * What may stand in the Content-Security-Policy's connect-src besides the page's own origin: origins, and
 * nothing else, so no value can carry anything into the header (a `;` would start another directive).
 * Imports nothing: the client's build uses it too (scripts/vite-connect-src.ts).
 */

/** The file in which a build of the client names the origins it calls (issue 20; buildConnectSrc.ts). */
export const BUILD_CONNECT_SRC_FILE = 'connect-src.json';

/** The schemes connect-src may name: the API's and the websocket's. */
export const CONNECT_SCHEMES: readonly string[] = ['http:', 'https:', 'ws:', 'wss:'];

/** The origin of `address` when it is a URL of one of `schemes` on a plain host, else null. */
export function originOf(address: string, schemes: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return null;
  }
  if (!schemes.includes(url.protocol) || !/^[a-z0-9.*:[\]-]+$/i.test(url.host)) return null;
  return `${url.protocol}//${url.host}`;
}
