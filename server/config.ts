import path from 'node:path';
import { DEFAULT_PING_INTERVAL_MS } from '../src/protocol/constants';
import { CONNECT_SCHEMES, originOf } from './http/cspOrigins';

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
  /** Seed the demo world when the database is new. */
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
}

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
};

function intFrom(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number, got "${value}"`);
  return n;
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
    port: intFrom(env.PORT, 'PORT', DEFAULTS.port),
    host: env.HOST || DEFAULTS.host,
    dataDir: path.resolve(env.DATA_DIR || DEFAULTS.dataDir),
    devPin: validateDevPin(env.MESSENGER_DEV_PIN, env.NODE_ENV),
    pingIntervalMs: intFrom(env.PING_INTERVAL_MS, 'PING_INTERVAL_MS', DEFAULTS.pingIntervalMs),
    eventRetention: intFrom(env.EVENT_RETENTION, 'EVENT_RETENTION', DEFAULTS.eventRetention),
    seedDemo: env.SEED_DEMO !== '0',
    allowedOrigins: originsFrom(env.ALLOWED_ORIGINS, 'ALLOWED_ORIGINS', ['http:', 'https:']),
    cspConnectSrc: [...new Set(originsFrom(env.CSP_CONNECT_SRC, 'CSP_CONNECT_SRC', CONNECT_SCHEMES))],
    sendRateLimit: intFrom(env.SEND_RATE_LIMIT, 'SEND_RATE_LIMIT', DEFAULTS.sendRateLimit),
    sendRateWindowMs: intFrom(env.SEND_RATE_WINDOW_MS, 'SEND_RATE_WINDOW_MS', DEFAULTS.sendRateWindowMs),
    ...overrides,
  };
}

export function testConfig(dataDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  // Tests and benchmarks send hundreds of messages as one user in a second; a test of the limit sets its own.
  const unlimited = { sendRateLimit: 0 };
  return { ...DEFAULTS, port: 0, host: '127.0.0.1', dataDir, devPin: '1234', seedDemo: false, ...unlimited, ...overrides };
}
