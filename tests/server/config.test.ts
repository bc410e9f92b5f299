import { describe, expect, it } from 'vitest';
import { ConfigError, configFromEnv } from '../../server/config';

/**
 * Every variable the server reads is checked by configFromEnv, before anything is touched (README,
 * "Configuration"): a bad value is one ConfigError naming the variable and what it accepts.
 */

/** The message configFromEnv refuses `env` with (it must refuse it with a ConfigError). */
function refusal(env: NodeJS.ProcessEnv): string {
  try {
    configFromEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

const BAD_VALUES: [name: string, value: string, accepts: RegExp][] = [
  ['PORT', '99999', /PORT must be a whole number from 0 to 65535, got "99999"/],
  ['PORT', '-1', /^PORT must be/],
  ['PORT', '80.5', /^PORT must be/],
  ['PORT', '1e3', /^PORT must be/],
  ['PORT', ' 80', /^PORT must be/],
  ['PORT', 'http', /^PORT must be/],
  ['HOST', 'not-a-host', /^HOST must be an IP address .* or localhost, got "not-a-host"/],
  ['HOST', '999.1.1.1', /^HOST must be/],
  ['HOST', 'http://0.0.0.0', /^HOST must be/],
  ['TRUST_PROXY', 'banana', /^TRUST_PROXY must be true, false, a hop count, or addresses and CIDR ranges/],
  ['TRUST_PROXY', '10.0.0.0/33', /^TRUST_PROXY must be/],
  ['TRUST_PROXY', '127.0.0.1,banana', /^TRUST_PROXY must be/],
  ['TRUST_PROXY', '1000', /^TRUST_PROXY must be/],
  ['SEED_DEMO', 'yes', /^SEED_DEMO must be 1 or 0, got "yes"/],
  ['MESSENGER_DEV_PIN', '12345', /^MESSENGER_DEV_PIN must be exactly four digits/],
  ['PING_INTERVAL_MS', '0', /^PING_INTERVAL_MS must be a whole number from 100 to/],
  ['PING_INTERVAL_MS', '10s', /^PING_INTERVAL_MS must be/],
  ['EVENT_RETENTION', '0', /^EVENT_RETENTION must be a whole number from 1 to/],
  ['ALLOWED_ORIGINS', 'ws://a.example', /^ALLOWED_ORIGINS must list/],
  ['CSP_CONNECT_SRC', 'ftp://a.example', /^CSP_CONNECT_SRC must list/],
  ['SEND_RATE_LIMIT', 'many', /^SEND_RATE_LIMIT must be/],
  ['SEND_RATE_WINDOW_MS', '0', /^SEND_RATE_WINDOW_MS must be a whole number from 1 to/],
  ['AUTH_IP_LIMIT', '-1', /^AUTH_IP_LIMIT must be/],
  ['AUTH_IP_WINDOW_MS', '0', /^AUTH_IP_WINDOW_MS must be a whole number from 1 to/],
  ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
  // A timer longer than 2^31 − 1 ms fires at once: a drain that would not wait at all.
  ['DRAIN_TIMEOUT_MS', '9999999999', /^DRAIN_TIMEOUT_MS must be a whole number from 0 to 2147483647/],
  ['PIN_WEBHOOK_URL', 'file:///etc/passwd', /^PIN_WEBHOOK_URL must be an http or https address/],
  ['PIN_WEBHOOK_URL', 'sms gateway', /^PIN_WEBHOOK_URL must be/],
  ['REDIS_URL', 'http://cache:6379', /^REDIS_URL must be a redis:\/\/ or rediss:\/\/ address/],
  ['DATABASE_URL', 'mysql://db/messenger', /^DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ address/],
  ['NODE_ID', 'node one', /^NODE_ID must be 1 to 64 letters, digits/],
  ['BUS_SWEEP_MS', '50', /^BUS_SWEEP_MS must be a whole number from 100 to/],
];

describe('configFromEnv', () => {
  it.each(BAD_VALUES)('refuses %s=%j in one line naming it and what it accepts', (name, value, accepts) => {
    const message = refusal({ [name]: value });
    expect(message).toMatch(accepts);
    expect(message).not.toContain('\n');
  });

  it('takes the values each variable accepts', () => {
    const config = configFromEnv({
      PORT: '65535',
      HOST: '::',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,fd00::/8,loopback,192.168.0.0/255.255.0.0',
      SEED_DEMO: '0',
      PING_INTERVAL_MS: '100',
      DRAIN_TIMEOUT_MS: '0',
      NODE_ID: 'eu-1.node_2',
      BUS_SWEEP_MS: '100',
    });
    expect(config).toMatchObject({ port: 65535, host: '::', seedDemo: false, pingIntervalMs: 100, drainTimeoutMs: 0 });
    expect(config).toMatchObject({ nodeId: 'eu-1.node_2', busSweepMs: 100 });
    expect(config.trustProxy).toBe('127.0.0.1,10.0.0.0/8,fd00::/8,loopback,192.168.0.0/255.255.0.0');
    expect(configFromEnv({ HOST: 'localhost', PORT: '0' })).toMatchObject({ host: 'localhost', port: 0 });
    expect(configFromEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(configFromEnv({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('seeds the demo world by default, but not with NODE_ENV=production unless SEED_DEMO=1', () => {
    const webhook = { PIN_WEBHOOK_URL: 'https://sms.example/pin' };
    expect(configFromEnv({}).seedDemo).toBe(true);
    expect(configFromEnv({ NODE_ENV: 'test' }).seedDemo).toBe(true);
    expect(configFromEnv({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    expect(configFromEnv({ NODE_ENV: 'production', ...webhook }).seedDemo).toBe(false);
    expect(configFromEnv({ NODE_ENV: 'production', SEED_DEMO: '', ...webhook }).seedDemo).toBe(false);
    expect(configFromEnv({ NODE_ENV: 'production', SEED_DEMO: '1', ...webhook }).seedDemo).toBe(true);
  });

  it('keeps the webhook credentials and reads its secret', () => {
    const config = configFromEnv({ PIN_WEBHOOK_URL: 'https://gw:p%40ss@sms.example/pin', PIN_WEBHOOK_SECRET: 's3cret' });
    expect(config.pinWebhookUrl).toBe('https://gw:p%40ss@sms.example/pin');
    expect(config.pinWebhookSecret).toBe('s3cret');
    expect(configFromEnv({}).pinWebhookSecret).toBeUndefined();
  });
});
