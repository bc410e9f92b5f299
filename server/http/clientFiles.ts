import type { SetHeadersResponse } from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/**
 * The build's compressed copies of its text files (`app.js.br`, `app.js.gz`, written by scripts/precompress.ts):
 * @fastify/static (`preCompressed`) sends one in place of its file, brotli when the request accepts it, else
 * gzip, else the file itself; they are no routes of their own.
 */
export const COMPRESSED_COPIES = ['**/*.br', '**/*.gz'];

/**
 * @fastify/static's `setHeaders`, called for every client file it sends (the index.html of a client route,
 * and 304s, too): what one URL sends depends on the request's Accept-Encoding, so `Vary` says so to caches.
 */
export function varyOnEncoding(res: SetHeadersResponse): void {
  res.setHeader('Vary', 'Accept-Encoding');
}

/**
 * The service worker's own scripts at the client's root (vite-plugin-pwa's `sw.js`, and `registerSW.js`
 * should a build add it): always checked with the server, so a deploy reaches open tabs at the browser's
 * next update check (issue 13). Its Workbox runtime (`workbox-<hash>.js`) is named by its content and needs
 * no such rule. Their scope is the whole app ('/'), the folder they are served from: no
 * Service-Worker-Allowed header is needed.
 */
const SERVICE_WORKER_SCRIPTS = new Set(['/sw.js', '/registerSW.js']);

/**
 * `Cache-Control: no-cache` for the service worker, set as the answer goes: @fastify/static sets its own
 * caching headers after its `setHeaders` option runs. (The web app manifest's type, application/manifest+json,
 * is @fastify/static's own.)
 */
export function registerClientFileHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 200) return;
    const pathname = request.url.split('?')[0] ?? '';
    if (SERVICE_WORKER_SCRIPTS.has(pathname)) reply.header('Cache-Control', 'no-cache');
    // `.ts` is MPEG transport stream to a MIME table: the console's declarations (issue 24) are text to read.
    const html = String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    if (pathname.endsWith('.d.ts') && !html) reply.header('Content-Type', 'text/plain; charset=utf-8');
  });
}
