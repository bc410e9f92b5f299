import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { ServerConfig } from '../config';
import { CSP_REPORT_PATH } from './cspReports';

/**
 * Features the app never uses: no page of it (nor anything that gets into one) may ask for them.
 * Clipboard, fullscreen, picture-in-picture and autoplay keep their default (this origin only): copying a
 * message and the media viewer's videos use them.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'camera',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
];
const PERMISSIONS_POLICY = DENIED_FEATURES.map((feature) => `${feature}=()`).join(', ');

/** A Host header that is a plain host[:port], so it can go into the policy as it is. */
const PLAIN_HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * The page's own websocket, named outright: whether 'self' covers ws:// and wss:// differs between
 * browsers and versions. The host is the one the page was loaded from (the Host header), so it also holds
 * behind `npm run dev`'s proxy and on any name the server is reached by.
 */
function ownSockets(request: IncomingMessage): string {
  const host = request.headers.host;
  return host !== undefined && PLAIN_HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

/**
 * The security headers of every answer (issue 12), set by helmet: a Content-Security-Policy under which
 * only the app's own scripts run and nothing frames it, no referrer, no opener across origins, and
 * Permissions-Policy (which helmet does not know) denying what the app never uses. Violations are
 * reported to CSP_REPORT_PATH (cspReports.ts). connect-src names, besides the page's own origin, what
 * CSP_CONNECT_SRC lists and what the served build says it calls (`buildConnectSrc`, issue 20: read from the
 * build at start, buildConnectSrc.ts, so its error reporting and QA preset work however it was built).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: ServerConfig,
  buildConnectSrc: readonly string[] = [],
): Promise<void> {
  const connectSrc = [...new Set([...config.cspConnectSrc, ...buildConnectSrc])];
  await app.register(helmet, {
    contentSecurityPolicy: {
      // Helmet's defaults allow inline styles and upgrade requests to https (which a plain-http server breaks).
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Files, pictures and videos are served from /files; blob: for files picked but not yet sent; data:
        // for the page's empty icon (index.html: `href="data:,"`, so the browser asks for no /favicon.ico).
        imgSrc: ["'self'", 'blob:', 'data:'],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", ownSockets, ...connectSrc],
        // The engine's SharedWorker (or dedicated workers) and the service worker, `/sw.js` (issue 13).
        workerSrc: ["'self'"],
        reportUri: [CSP_REPORT_PATH],
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Permissions-Policy', PERMISSIONS_POLICY);
  });
}
