import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Writable } from 'node:stream';
import { HEADER_AUTH_TOKEN } from '../src/protocol/api';
import { ATTACHMENT_MAX_BYTES } from '../src/protocol/constants';
import { type Clock, systemClock } from './clock';
import type { ServerConfig } from './config';
import type { ServerContext } from './context';
import { openStore } from './db/open';
import { sql } from './db/store';
import { DirectoryStorage } from './files/storage';
import { UploadSweeper } from './files/sweep';
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
import { registerAuthIpLimit } from './http/authIpLimit';
import { type HealthOptions, registerHealthRoutes } from './ops/health';
import { createMetrics, timeStatements } from './ops/metrics';
import { assertMetricsGuarded, createMetricsListener } from './ops/metricsListener';
import { namesMetrics } from './ops/metricsPath';
import { ProbeLogController } from './ops/probeLogging';
import { registerRequestDuration } from './ops/requestDuration';
import { ChatTurns } from './domain/chatTurns';
import { InFlight } from './ops/inFlight';
import { consolePinDelivery, type PinDelivery, webhookPinDelivery } from './pins/delivery';
import { type EventBus, LocalBus } from './realtime/bus';
import { EventLog } from './realtime/events';
import { LocalPresence, type PresenceCounter, RedisPresence } from './realtime/presence';
import { RedisBus } from './realtime/redisBus';
import { RedisSendBuckets } from './http/redisSendBuckets';
import { SocketHub } from './realtime/hub';
import { idleMs } from './domain/sessions';
import { registerRoutes } from './routes';
import { DEMO_USERS, seedDemoWorld } from './seed/demo';

export interface BuiltServer {
  app: FastifyInstance;
  ctx: ServerContext;
  hub: SocketHub;
  /**
   * Listens on config.port (0 picks a free one) and resolves to the base URL; the metrics listener starts
   * on config.metricsPort alongside.
   */
  listen(): Promise<string>;
  /** The metrics listener's base URL (`/metrics`, `/healthz`, `/readyz`), once listen() resolved. */
  readonly metricsUrl: string | undefined;
  /**
   * What SIGTERM does (issue 21): readyz answers 503, the listener closes, every websocket is closed with
   * the "reconnect" code, requests in flight finish (at most `timeoutMs`, then they are cut), then close().
   */
  drain(timeoutMs?: number): Promise<void>;
  /** Stops at once: sockets and connections are cut. */
  close(): Promise<void>;
  /** Removes abandoned temporary uploads now (docs/server.md "Uploads"); also done at start and on a timer. */
  sweepUploads(): Promise<number>;
}

export interface BuildOptions {
  clock?: Clock;
  /** Where the server's log goes; false for silence. Defaults to stdout. */
  logStream?: Writable | false;
  /** Where PINs go; defaults to PIN_WEBHOOK_URL's webhook, else the console. */
  announcePin?: PinDelivery;
  /** The bus to the other nodes; defaults to Redis's with REDIS_URL, else none (tests pass one of their own). */
  bus?: EventBus;
  /** Where Content-Security-Policy violation reports go; defaults to the log. */
  onCspReport?: (report: CspReport) => void;
  /**
   * Tests only: the migrations of the build this node plays (a newer build with one more, for the rolling
   * restart of docs/server.md "Upgrading"); defaults to this build's. No environment variable sets it.
   */
  migrations?: readonly string[];
}

/** How long a starting node waits for Redis before it starts without it. */
const REDIS_START_WAIT_MS = 5_000;

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

/** A hop count as Fastify's own number option means it (its types omit numbers): trust the nearest `n` hops. */
function trustProxyOption(value: ServerConfig['trustProxy']): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof value !== 'number') return value;
  return (_address, hop) => hop < value;
}

export async function buildServer(config: ServerConfig, options: BuildOptions = {}): Promise<BuiltServer> {
  // What the served build calls besides this origin (its connect-src.json), read before anything is opened:
  // a malformed file refuses the start (a ConfigError naming it).
  const buildConnectSrc = readBuildConnectSrc(config.clientDir);
  assertMetricsGuarded(config.metricsHost, config.metricsToken);
  const clock = options.clock ?? systemClock;
  const logStream = options.logStream ?? process.stdout;
  const app = Fastify({
    logger:
      logStream === false
        ? false
        : {
            level: config.logLevel,
            stream: logStream,
            // Every line names the node it came from (README, "Configuration": NODE_ID).
            base: { pid: process.pid, hostname: hostname(), node: config.nodeId },
            serializers: {
              // The client's address is Fastify's request.ip: X-Forwarded-For's under TRUST_PROXY, else the socket's.
              req: (req: { method: string; url: string; ip: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
            },
          },
    // Fastify's request lines, the probes' at debug level (server/ops/probeLogging.ts).
    logController: new ProbeLogController(),
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
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

  let draining = false;
  // The hub is created below, after the database it needs; the gauge reads it when scraped.
  const hubHolder: { hub?: SocketHub } = {};
  const metrics = createMetrics({ sockets: () => hubHolder.hub?.connectionCount() ?? 0, draining: () => draining });
  const { store: db, created } = await openStore(config, options.migrations);
  timeStatements(db, metrics.databaseSeconds);
  const files = new DirectoryStorage(path.join(config.dataDir, 'files'));
  // With REDIS_URL the node is one of several: the bus, the limits and presence are shared through Redis.
  const redisBus =
    config.redisUrl === undefined ? undefined : new RedisBus(config.redisUrl, config.nodeId, app.log, () => metrics.busPublishFailures.inc());
  if (redisBus && !(await redisBus.connected(REDIS_START_WAIT_MS))) {
    app.log.warn({ redis: 'unreachable' }, 'starting without Redis: readyz reports the bus until it is back');
  }
  const redis = redisBus?.client;
  const bus: EventBus = options.bus ?? redisBus ?? new LocalBus();
  const presence: PresenceCounter = redis ? new RedisPresence(redis, config.nodeId) : new LocalPresence();
  const events = await EventLog.open(db, config.eventRetention, () => clock.now(), (action) => metrics.eventsStored.inc({ action }));
  const ctx: ServerContext = {
    db,
    events,
    clock,
    config,
    files,
    metrics,
    presence,
    chatTurns: new ChatTurns(),
    sessionsEnded: (sessions) => hubHolder.hub?.closeSessions(sessions),
    announcePin:
      options.announcePin ??
      (config.pinWebhookUrl !== undefined
        ? webhookPinDelivery(config.pinWebhookUrl, { secret: config.pinWebhookSecret, now: () => clock.now() })
        : // The demo's delivery: printed on the console, never in the structured log; refused in production.
          consolePinDelivery(logStream === false ? () => undefined : console.log)),
  };
  const hub = new SocketHub({
    db,
    events,
    pingIntervalMs: config.pingIntervalMs,
    allowedOrigins: config.allowedOrigins,
    now: () => clock.now(),
    sessionIdleMs: idleMs(config.sessionIdleDays),
    log: app.log,
    onDelivered: (storedAt) => metrics.deliverySeconds.observe((performance.now() - storedAt) / 1000),
    onCatchUp: (reason) => metrics.catchUpReads.inc({ reason }),
    bus,
    presence,
    sweepIntervalMs: config.busSweepMs,
  });
  hubHolder.hub = hub;
  const uploadSweeper = new UploadSweeper(files, () => clock.now(), (error) =>
    app.log.warn({ code: (error as { code?: string }).code }, 'could not sweep abandoned uploads'),
  );
  await uploadSweeper.sweep();
  uploadSweeper.start();
  if (created && config.seedDemo) {
    await seedDemoWorld(ctx);
    if (logStream !== false) {
      app.log.info(`Demo world seeded. Sign in as ${DEMO_USERS.map((u) => `${u.nickname} ${u.phone}`).join(', ')}`);
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
    // `/v1/../metrics` too answers the 404 of every spelling of /metrics (server/ops/metricsPath.ts), not a 401.
    if (route === undefined && namesMetrics(request.url)) return;
    if (request.routeOptions.config?.public) return;
    const token = request.headers[HEADER_AUTH_TOKEN.toLowerCase()];
    const check = { now: clock.now(), idleMs: idleMs(config.sessionIdleDays) };
    const user = await userForToken(db, typeof token === 'string' ? token : undefined, check);
    if (!user) throw unauthorized();
    request.authUser = user;
  });
  registerSendRateLimit(app, config, clock, metrics, redis && ((limit, windowMs) => new RedisSendBuckets(redis, limit, windowMs)));
  await registerAuthIpLimit(app, config, metrics, redis);
  const inFlight = new InFlight(app);
  app.addHook('onSend', async (_request, reply) => {
    // A draining node's keep-alive connections end with this answer; the client's next request finds a live node.
    if (draining) reply.header('Connection', 'close');
  });
  app.addHook('onResponse', async (_request, reply) => {
    metrics.httpAnswers.inc({ status: `${Math.floor(reply.statusCode / 100)}xx` });
  });
  registerRequestDuration(app, metrics.httpSeconds);
  // Every answer of the API is the client's to read but no one else's to frame or sniff.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
  });

  installErrorHandlers(app);
  const health: HealthOptions = {
    checks: [
      { name: 'database', check: async () => void (await db.get(sql`SELECT 1`)) },
      ...(bus.shared ? [{ name: 'bus', check: () => bus.check() }] : []),
    ],
    draining: () => draining,
  };
  registerHealthRoutes(app, health);
  // No /metrics here: the metrics live on a listener of their own, loopback by default (docs/server.md, "Metrics").
  const metricsListener = createMetricsListener({
    port: config.metricsPort,
    host: config.metricsHost,
    token: config.metricsToken,
    metrics,
    health,
    log: logStream === false ? undefined : app.log,
  });
  let metricsUrl: string | undefined;
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
    // HEAD like GET (monitoring checks pages with it); Node's response leaves the body out. Any spelling of
    // /metrics is the same 404 as /metrics itself, never the app's page (server/ops/metricsPath.ts).
    const pageMethod = request.method === 'GET' || request.method === 'HEAD';
    if (pageMethod && hasClient && !isApiPath(request.url) && !namesMetrics(request.url)) {
      // Every unknown path is a client route (design.md §4): the app decides what it shows.
      return reply.type('text/html').sendFile('index.html');
    }
    return apiNotFound(reply);
  });

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    uploadSweeper.stop();
    hub.close();
    await metricsListener.close();
    await app.close();
    await presence.close();
    await bus.close();
    await db.close();
  };
  return {
    app,
    ctx,
    hub,
    get metricsUrl() {
      return metricsUrl;
    },
    async listen() {
      // The metrics listener first: a port taken there stops the start before the node takes traffic.
      metricsUrl = await metricsListener.listen();
      await app.listen({ port: config.port, host: config.host });
      hub.attach(app.server);
      const port = (app.server.address() as { port: number }).port;
      const wildcard = config.host === '0.0.0.0' || config.host === '::';
      return `http://${wildcard ? 'localhost' : config.host}:${port}`;
    },
    async drain(timeoutMs = config.drainTimeoutMs) {
      if (draining || closed) return;
      draining = true;
      app.log.info({ inFlight: inFlight.count, sockets: hub.connectionCount(), timeoutMs }, 'draining');
      // No new connections; idle keep-alive ones go now, busy ones after their answer (Connection: close).
      app.server.close();
      app.server.closeIdleConnections();
      hub.closeForRestart();
      const finished = await inFlight.settled(timeoutMs);
      if (!finished) app.log.warn({ inFlight: inFlight.count }, 'drain timed out: cutting the requests left');
      await close();
    },
    close,
    sweepUploads: () => uploadSweeper.sweep(),
  };
}
