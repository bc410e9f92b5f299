import path from 'node:path';
import { DEFAULT_PING_INTERVAL_MS } from '../src/protocol/constants';

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
    ...overrides,
  };
}

export function testConfig(dataDir: string, overrides: Partial<ServerConfig> = {}): ServerConfig {
  return { ...DEFAULTS, port: 0, host: '127.0.0.1', dataDir, devPin: '1234', seedDemo: false, ...overrides };
}
