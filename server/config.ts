import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_PING_INTERVAL_MS } from '../src/protocol/constants';
import { CONNECT_SCHEMES, originOf } from './http/cspOrigins';
import { isLoopbackHost } from './ops/loopback';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  /** When set every issued PIN is this value (demos and tests); never in production. */
  devPin: string | undefined;
  pingIntervalMs: number;
  /** How many events per user are kept for replay; older ids get `need_sync`. */
  eventRetention: number;
  /** The built client to serve, or undefined to serve the API only. */
  clientDir: string | undefined;
  /**
   * Seed the demo world when the database is new: SEED_DEMO=1 or 0; unset, on except with NODE_ENV=production
   * (a production database never gets the demo's accounts by accident).
   */
  seedDemo: boolean;
  /** Foreign origins whose pages may open the websocket (the page's own origin always may). */
  allowedOrigins: readonly string[];
  /**
   * Origins the pages may connect to besides their own (CSP connect-src), from CSP_CONNECT_SRC. The origins
   * the served build needs itself (its QA preset, its error reporting) come from the build
   * (server/http/buildConnectSrc.ts), never from the server's environment.
   */
  cspConnectSrc: readonly string[];
  /**
   * Sends (messages, posts, comments, reactions) a user may make at once; they come back at this many per
   * window. 0: no limit.
   */
  sendRateLimit: number;
  sendRateWindowMs: number;
  /** Requests to the public sign-in routes one address may make per window (issue 21). 0: no limit. */
  authIpLimit: number;
  authIpWindowMs: number;
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (Fastify's trustProxy): false (none,
   * the default), true (any), a hop count, or addresses and CIDR ranges. Behind HAProxy: its address.
   */
  trustProxy: boolean | number | string;
  /** pino's level for the structured log: fatal, error, warn, info, debug, trace or silent. */
  logLevel: LogLevel;
  /** After SIGTERM, how long requests in flight may take before the node exits anyway. */
  drainTimeoutMs: number;
  /**
   * Where PINs go (issue 21): POSTed to this URL when set; else printed on the console (the demo's delivery),
   * which NODE_ENV=production refuses, so a production node never has a PIN in its output.
   */
  pinWebhookUrl: string | undefined;
  /**
   * PIN_WEBHOOK_SECRET: when set, each webhook request carries `X-Messenger-Signature: t=<unix>,v1=<hex>`, the
   * HMAC-SHA256 of `<t>.<body>` with it, so the gateway can refuse requests that are not this server's.
   */
  pinWebhookSecret: string | undefined;
  /**
   * Redis (REDIS_URL, e.g. redis://127.0.0.1:6379): the bus between nodes, and the limits and presence they
   * share. Unset, this node is alone: an in-process bus and in-memory limits.
   */
  redisUrl: string | undefined;
  /**
   * PostgreSQL (DATABASE_URL, e.g. postgres://messenger@db/messenger): the one store every node shares. Unset,
   * the node keeps its data in SQLite in DATA_DIR (the embedded default). Uploaded files stay in DATA_DIR.
   */
  databaseUrl: string | undefined;
  /** This node's name in the cluster (NODE_ID; random by default): on the bus, in logs and metrics. */
  nodeId: string;
  /** With Redis, how often each node checks its sockets' users for events no note told it of (BUS_SWEEP_MS). */
  busSweepMs: number;
  /**
   * When set, the metrics listener's `GET /metrics` wants `Authorization: Bearer <this>`; unset, it is open to
   * whoever reaches `metricsHost`, which must then be loopback.
   */
  metricsToken: string | undefined;
  /**
   * The port of the node's metrics listener (METRICS_PORT; 9464, the Prometheus exporters' port, by default; 0
   * picks a free one): `/metrics` is served there and never on `port`, where the public balancer sends anyone.
   */
  metricsPort: number;
  /** The metrics listener's address (METRICS_HOST): loopback by default; any other needs `metricsToken`. */
  metricsHost: string;
  /**
   * How many days a session (a sign-in's token) may go unused before it expires (SESSION_IDLE_DAYS, a whole
   * number of at least 1): its next request then gets 401 (docs/server.md "Sessions").
   */
  sessionIdleDays: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

const DEFAULTS: ServerConfig = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: path.resolve('data'),
  devPin: undefined,
  pingIntervalMs: DEFAULT_PING_INTERVAL_MS,
  eventRetention: 10_000,
  clientDir: undefined,
  seedDemo: true,
  allowedOrigins: [],
  cspConnectSrc: [],
  sendRateLimit: 60,
  sendRateWindowMs: 60_000,
  authIpLimit: 60,
  authIpWindowMs: 60_000,
  trustProxy: false,
  logLevel: 'info',
  drainTimeoutMs: 10_000,
  metricsToken: undefined,
  metricsPort: 9464,
  metricsHost: '127.0.0.1',
  pinWebhookUrl: undefined,
  pinWebhookSecret: undefined,
  redisUrl: undefined,
  databaseUrl: undefined,
  nodeId: 'node',
  busSweepMs: 2_000,
  sessionIdleDays: 90,
};

/** The longest delay a timer takes (2^31 − 1 ms, about 24 days): Node fires a longer one at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * A whole number from `min` to `max` in plain decimal digits: `1e3`, ` 5`, `0x10` and `8080.5` are refused,
 * as are values a timer or a socket cannot take (PORT=99999 would fail only once the database was opened).
 */
function intFrom(value: string | undefined, name: string, fallback: number, min = 0, max = MAX_TIMER_MS): number {
  if (value === undefined || value === '') return fallback;
  const n = /^\d{1,16}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  }
  return n;
}

/** A switch: `1` or `0`; unset (or empty), the default. */
function switchFrom(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (value === '1') return true;
  if (value === '0') return false;
  throw new ConfigError(`${name} must be 1 or 0, got "${value}"`);
}

/**
 * The address to listen on: an IP address (`0.0.0.0`, `::`, `127.0.0.1`, …) or `localhost`. A name is refused
 * here rather than by the listen, which comes after the database was opened and seeded.
 */
function hostFrom(value: string | undefined): string {
  if (value === undefined || value === '') return DEFAULTS.host;
  if (value === 'localhost' || isIP(value) !== 0) return value;
  throw new ConfigError(`HOST must be an IP address of this machine (0.0.0.0, ::, 127.0.0.1, …) or localhost, got "${value}"`);
}

/** NODE_ID names the node in Redis keys, metrics and logs: letters, digits, `.`, `_` and `-`. */
function nodeIdFrom(value: string | undefined): string {
  if (value === undefined || value === '') return `node-${randomBytes(4).toString('hex')}`;
  if (/^[A-Za-z0-9._-]{1,64}$/.test(value)) return value;
  throw new ConfigError(`NODE_ID must be 1 to 64 letters, digits, ".", "_" or "-", got "${value}"`);
}

function logLevelFrom(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return DEFAULTS.logLevel;
  const level = LOG_LEVELS.find((l) => l === value.toLowerCase());
  if (!level) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}"`);
  return level;
}

/** proxy-addr's names for address ranges, which Fastify's trustProxy takes beside addresses. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR range (`10.0.0.0/8`, `fd00::/8`) or an IPv4 range with its netmask, as proxy-addr reads them. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', range, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4;
}

function trustProxyFrom(value: string | undefined): ServerConfig['trustProxy'] {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d{1,3}$/.test(value)) return Number(value);
  // Addresses and CIDR ranges, comma separated: checked here, as Fastify (proxy-addr) throws a stack at start.
  const entries = value.split(',').map((entry) => entry.trim());
  if (!entries.every(isProxyAddress)) {
    throw new ConfigError(
      `TRUST_PROXY must be true, false, a hop count, or addresses and CIDR ranges separated by commas (127.0.0.1,10.0.0.0/8), got "${value}"`,
    );
  }
  return entries.join(',');
}

/**
 * METRICS_HOST: an address other than loopback is reachable by others, so it is refused without METRICS_TOKEN
 * (docs/server.md, "Metrics").
 */
function metricsHostFrom(value: string | undefined, token: string | undefined): string {
  const host = value || DEFAULTS.metricsHost;
  if (!isLoopbackHost(host) && !token) throw new ConfigError(`METRICS_HOST=${host} is not loopback: set METRICS_TOKEN too`);
  return host;
}

function pinWebhookFrom(value: string | undefined, nodeEnv: string | undefined): string | undefined {
  if (value === undefined || value === '') {
    if (nodeEnv === 'production') {
      throw new ConfigError('NODE_ENV=production needs PIN_WEBHOOK_URL: a production server never prints PINs on its console');
    }
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`PIN_WEBHOOK_URL must be an http or https address, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`PIN_WEBHOOK_URL must be an http or https address, got "${value}"`);
  }
  // `user:password@` stays in the URL: the delivery sends it as Basic auth (fetch refuses it in the URL).
  return url.href;
}

function databaseUrlFrom(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// address');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// address');
  }
  return value;
}

function redisUrlFrom(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// address, got "${value}"`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// address, got "${value}"`);
  }
  return value;
}

export function validateDevPin(devPin: string | undefined, nodeEnv: string | undefined): string | undefined {
  if (devPin === undefined || devPin === '') return undefined;
  if (nodeEnv === 'production') throw new ConfigError('MESSENGER_DEV_PIN is refused when NODE_ENV=production');
  if (!/^\d{4}$/.test(devPin)) throw new ConfigError('MESSENGER_DEV_PIN must be exactly four digits');
  return devPin;
}

/**
 * The origins of a list of URLs (space or comma separated). Only the origin is kept, so the value cannot
 * carry anything else into a header (a `;` would start another CSP directive).
 */
function originsFrom(value: string | undefined, name: string, schemes: readonly string[]): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((entry) => {
      const origin = originOf(entry, schemes);
      if (origin === null) throw new ConfigError(`${name} must list ${schemes.join(' or ')} addresses, got "${entry}"`);
      return origin;
    });
}

export function configFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return {
    ...DEFAULTS,
    port: intFrom(env.PORT, 'PORT', DEFAULTS.port, 0, 65_535),
    host: hostFrom(env.HOST),
    dataDir: path.resolve(env.DATA_DIR || DEFAULTS.dataDir),
    devPin: validateDevPin(env.MESSENGER_DEV_PIN, env.NODE_ENV),
    pingIntervalMs: intFrom(env.PING_INTERVAL_MS, 'PING_INTERVAL_MS', DEFAULTS.pingIntervalMs, 100),
    eventRetention: intFrom(env.EVENT_RETENTION, 'EVENT_RETENTION', DEFAULTS.eventRetention, 1, 100_000_000),
    seedDemo: switchFrom(env.SEED_DEMO, 'SEED_DEMO', env.NODE_ENV !== 'production'),
    allowedOrigins: originsFrom(env.ALLOWED_ORIGINS, 'ALLOWED_ORIGINS', ['http:', 'https:']),
    cspConnectSrc: [...new Set(originsFrom(env.CSP_CONNECT_SRC, 'CSP_CONNECT_SRC', CONNECT_SCHEMES))],
    sendRateLimit: intFrom(env.SEND_RATE_LIMIT, 'SEND_RATE_LIMIT', DEFAULTS.sendRateLimit),
    sendRateWindowMs: intFrom(env.SEND_RATE_WINDOW_MS, 'SEND_RATE_WINDOW_MS', DEFAULTS.sendRateWindowMs, 1),
    authIpLimit: intFrom(env.AUTH_IP_LIMIT, 'AUTH_IP_LIMIT', DEFAULTS.authIpLimit),
    authIpWindowMs: intFrom(env.AUTH_IP_WINDOW_MS, 'AUTH_IP_WINDOW_MS', DEFAULTS.authIpWindowMs, 1),
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    logLevel: logLevelFrom(env.LOG_LEVEL),
    drainTimeoutMs: intFrom(env.DRAIN_TIMEOUT_MS, 'DRAIN_TIMEOUT_MS', DEFAULTS.drainTimeoutMs),
    metricsToken: env.METRICS_TOKEN || undefined,
    metricsPort: intFrom(env.METRICS_PORT, 'METRICS_PORT', DEFAULTS.metricsPort),
    metricsHost: metricsHostFrom(env.METRICS_HOST, env.METRICS_TOKEN),
    pinWebhookUrl: pinWebhookFrom(env.PIN_WEBHOOK_URL, env.NODE_ENV),
    pinWebhookSecret: env.PIN_WEBHOOK_SECRET || undefined,
    redisUrl: redisUrlFrom(env.REDIS_URL),
    databaseUrl: databaseUrlFrom(env.DATABASE_URL),
    nodeId: nodeIdFrom(env.NODE_ID),
    busSweepMs: intFrom(env.BUS_SWEEP_MS, 'BUS_SWEEP_MS', DEFAULTS.busSweepMs, 100),
    sessionIdleDays: intFrom(env.SESSION_IDLE_DAYS, 'SESSION_IDLE_DAYS', DEFAULTS.sessionIdleDays, 1, 36_500),
    ...overrides,
  };
}

export function testConfig(dataDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  // Tests and benchmarks send hundreds of messages as one user in a second, and sign in hundreds of users from
  // one address; a test of a limit sets its own.
  const unlimited = { sendRateLimit: 0, authIpLimit: 0 };
  return { ...DEFAULTS, port: 0, metricsPort: 0, host: '127.0.0.1', dataDir, devPin: '1234', seedDemo: false, ...unlimited, ...overrides };
}
