import type { FastifyInstance } from 'fastify';

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
  });
}
