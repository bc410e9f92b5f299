import type { IncomingHttpHeaders } from 'node:http';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** hostname and port of a Host header, the port filled in from `scheme` when the header has none. */
function hostOf(host: string, scheme: string): string | null {
  try {
    const url = new URL(`${scheme}//${host}`);
    return `${url.hostname}:${url.port || DEFAULT_PORTS[scheme]}`;
  } catch {
    return null;
  }
}

/**
 * Whether a websocket upgrade may go on (issue 12): a browser always sends its page's Origin, and a page of
 * another site must not open a signed-in user's socket with a token it got hold of. Allowed: the origin
 * the request was sent to (its Host: the app's own pages, also behind `npm run dev`'s proxy, which keeps
 * the Host), the configured ALLOWED_ORIGINS, and no Origin at all (not a browser: nothing to protect
 * against there, the token alone decides).
 */
export function originAllowed(headers: IncomingHttpHeaders, allowedOrigins: readonly string[]): boolean {
  const origin = headers.origin;
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // `null` (a sandboxed frame, a file) and anything else that is no origin.
    return false;
  }
  if (!(url.protocol in DEFAULT_PORTS)) return false;
  if (allowedOrigins.includes(url.origin)) return true;
  const host = headers.host;
  if (host === undefined) return false;
  // A TLS proxy in front changes the scheme the server sees, not the host: the page's scheme decides the default port.
  return hostOf(host, url.protocol) === `${url.hostname}:${url.port || DEFAULT_PORTS[url.protocol]}`;
}
