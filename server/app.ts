import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Writable } from 'node:stream';
import { HEADER_AUTH_TOKEN } from '../src/protocol/api';
import { ATTACHMENT_MAX_BYTES } from '../src/protocol/constants';
import { type Clock, systemClock } from './clock';
import type { ServerConfig } from './config';
import type { ServerContext } from './context';
import { openDatabase } from './db/database';
import { userForToken } from './http/auth';
import { COMPRESSED_COPIES, registerClientFileHeaders, varyOnEncoding } from './http/clientFiles';
import { registerCompression } from './http/compression';
import { ApiError, unauthorized } from './http/errors';
import { apiNotFound, failure, installErrorHandlers } from './http/errorHandler';
import { type CspReport, registerCspReports } from './http/cspReports';
import { FormTooLargeError, parseForm } from './http/form';
import { numberRulePlugin } from './http/numbers';
import { recordRoutes } from './http/routeTable';
import { readBuildConnectSrc } from './http/buildConnectSrc';
import { registerSecurityHeaders } from './http/securityHeaders';
import { registerSendRateLimit } from './http/sendRateLimit';
import { EventLog } from './realtime/events';
import { SocketHub } from './realtime/hub';
import { registerRoutes } from './routes';
import { DEMO_USERS, seedDemoWorld } from './seed/demo';

export interface BuiltServer {
  app: FastifyInstance;
  ctx: ServerContext;
  hub: SocketHub;
  /** Listens on config.port (0 picks a free one) and resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

export interface BuildOptions {
  clock?: Clock;
  /** Where the server's log goes; false for silence. Defaults to stdout. */
  logStream?: Writable | false;
  /** Where PINs are printed; defaults to the log. */
  announcePin?: (phone: string, pin: string) => void;
  /** Where Content-Security-Policy violation reports go; defaults to the log. */
  onCspReport?: (report: CspReport) => void;
}

const API_PREFIXES = ['/v1/', '/v2/', '/files/'];
const isApiPath = (url: string) => API_PREFIXES.some((p) => url.startsWith(p)) || url === '/ws';

/**
 * What the log keeps of a URL: the path alone. A query may carry a token under any spelling of its key
 * (`%74oken=` decodes to `token=`), so none of it is logged.
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : `${url.slice(0, query)}?[query removed]`;
}

export async function buildServer(config: ServerConfig, options: BuildOptions = {}): Promise<BuiltServer> {
  // What the served build calls besides this origin (its connect-src.json), read before anything is opened:
  // a malformed file refuses the start (a ConfigError naming it).
  const buildConnectSrc = readBuildConnectSrc(config.clientDir);
  const clock = options.clock ?? systemClock;
  const logStream = options.logStream ?? process.stdout;
  const app = Fastify({
    logger:
      logStream === false
        ? false
        : {
            stream: logStream,
            serializers: {
              req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
            },
          },
    bodyLimit: 1024 * 1024,
    // Closing destroys what connections are left: a client that gave up on an answer's body (an engine that
    // stopped aborts its calls) leaves one the server would otherwise wait on for the keep-alive timeout.
    // A request cut this way is retried by the client (the outbox's Idempotency-Key keeps it to one).
    forceCloseConnections: true,
    // A URL Fastify cannot decode is answered in the API's envelope, without echoing the URL (it may hold a token).
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void failure(reply as FastifyReply, status, 'Bad request');
    },
    // The client sends ids as strings in forms; coerce them like query strings.
    // Numbers are not coerced: the number rule's keyword parses them (server/http/numbers.ts).
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, allErrors: false }, plugins: [numberRulePlugin] },
  });
  recordRoutes(app);
  // Before any route is added: the plugin hooks each route as it comes (server/http/compression.ts).
  await registerCompression(app);

  const { db, created } = openDatabase(config.dataDir);
  const filesDir = path.join(config.dataDir, 'files');
  mkdirSync(filesDir, { recursive: true });
  const events = new EventLog(db, config.eventRetention, () => clock.now());
  const ctx: ServerContext = {
    db,
    events,
    clock,
    config,
    filesDir,
    announcePin:
      options.announcePin ??
      ((phone, pin) => {
        // The demo's PIN delivery: the server console. Printed, not logged, so log shipping never sees it.
        if (logStream !== false) console.log(`PIN for ${phone}: ${pin}`);
      }),
  };
  const hub = new SocketHub({
    db,
    events,
    pingIntervalMs: config.pingIntervalMs,
    allowedOrigins: config.allowedOrigins,
    now: () => clock.now(),
    log: app.log,
  });
  if (created && config.seedDemo) {
    seedDemoWorld(ctx);
    if (logStream !== false) {
      console.log(`Demo world seeded. Sign in as ${DEMO_USERS.map((u) => `${u.nickname} ${u.phone}`).join(', ')}`);
    }
  }

  app.removeContentTypeParser('application/x-www-form-urlencoded');
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch (error) {
      const message = error instanceof FormTooLargeError ? error.message : 'The form body could not be read.';
      done(new ApiError(400, message), undefined);
    }
  });
  await app.register(multipart, {
    limits: { fileSize: ATTACHMENT_MAX_BYTES, files: 1, fields: 20, parts: 25, fieldSize: 64 * 1024 },
  });

  // Before authentication, so refusals carry them too.
  await registerSecurityHeaders(app, config, buildConnectSrc);
  await registerCspReports(app, options.onCspReport ?? ((report) => app.log.warn({ report }, 'CSP violation')));

  app.decorateRequest('authUser', undefined);
  app.addHook('onRequest', async (request) => {
    // Decided by the matched route, not the raw URL: `/%761/me` routes to /v1/me but does not start with /v1/.
    const route = request.routeOptions.url;
    const protectedPath = route !== undefined ? /^\/v[12]\//.test(route) : isApiPath(request.url);
    if (!protectedPath || request.url.startsWith('/files/')) return;
    if (request.routeOptions.config?.public) return;
    const token = request.headers[HEADER_AUTH_TOKEN.toLowerCase()];
    const user = userForToken(db, typeof token === 'string' ? token : undefined);
    if (!user) throw unauthorized();
    request.authUser = user;
  });
  registerSendRateLimit(app, config, clock);
  // Every answer of the API is the client's to read but no one else's to frame or sniff.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });

  installErrorHandlers(app);
  registerRoutes(app, ctx);

  const clientDir = config.clientDir;
  const hasClient = clientDir !== undefined && existsSync(path.join(clientDir, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      wildcard: false,
      index: false,
      // The build's .br and .gz copies, by Accept-Encoding (issue 20), the SPA fallback's index.html too.
      preCompressed: true,
      globIgnore: COMPRESSED_COPIES,
      setHeaders: varyOnEncoding,
    });
    registerClientFileHeaders(app);
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.method === 'GET' && hasClient && !isApiPath(request.url)) {
      // Every unknown path is a client route (design.md §4): the app decides what it shows.
      return reply.type('text/html').sendFile('index.html');
    }
    return apiNotFound(reply);
  });

  let closed = false;
  return {
    app,
    ctx,
    hub,
    async listen() {
      await app.listen({ port: config.port, host: config.host });
      hub.attach(app.server);
      const port = (app.server.address() as { port: number }).port;
      const wildcard = config.host === '0.0.0.0' || config.host === '::';
      return `http://${wildcard ? 'localhost' : config.host}:${port}`;
    },
    async close() {
      if (closed) return;
      closed = true;
      hub.close();
      await app.close();
      db.close();
    },
  };
}
