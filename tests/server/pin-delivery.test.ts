import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, buildServer } from '../../server/app';
import { ManualClock } from '../../server/clock';
import { configFromEnv, testConfig } from '../../server/config';
import { PIN_NOT_SENT } from '../../server/routes/auth';
import { call, nextPhone } from '../support/server';

/**
 * Issue 21: a deployment hands PINs to a webhook (PIN_WEBHOOK_URL) instead of printing them; a production
 * node refuses to start without one; and no PIN is ever in the structured log, at any LOG_LEVEL.
 */

interface Received {
  phone_nr: string;
  pin: string;
}

/** A stand-in SMS gateway on loopback: records what it is sent (and its headers) and answers `status`. */
class Gateway {
  readonly received: Received[] = [];
  readonly requests: { headers: IncomingHttpHeaders; body: string }[] = [];
  status = 204;
  private readonly server: Server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      this.received.push(JSON.parse(body) as Received);
      this.requests.push({ headers: request.headers, body });
      response.writeHead(this.status).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}/sms`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const gateway = new Gateway();
let server: BuiltServer;
let base: string;
let dataDir: string;
let log = '';

beforeAll(async () => {
  const webhook = await gateway.start();
  dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-pins-'));
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      log += chunk.toString();
      done();
    },
  });
  // No dev PIN: every PIN is random, as in production; the log at its most talkative.
  server = await buildServer(testConfig(dataDir, { devPin: undefined, pinWebhookUrl: webhook, logLevel: 'trace' }), { logStream });
  base = await server.listen();
});

afterAll(async () => {
  await server.close();
  await gateway.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('PIN delivery through the webhook', () => {
  it('POSTs the number and the PIN, which then signs in, and never writes the PIN to the log', async () => {
    const phone = nextPhone();
    expect((await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } })).data).toEqual({ status: 'sent' });
    const sent = gateway.received.at(-1);
    expect(sent?.phone_nr).toBe(phone);
    expect(sent?.pin).toMatch(/^\d{4}$/);
    const pin = sent?.pin as string;
    const wrong = pin === '0000' ? '1111' : '0000';
    expect((await call(base, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: wrong } })).status).toBe(400);
    const confirmed = await call<{ token: string }>(base, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin } });
    expect(confirmed.data.token).toBeTruthy();

    expect(log).toContain('/v1/auth/pin/confirm');
    // The PIN as a token of its own: not part of a longer run of digits (a timestamp, a number).
    expect(log).not.toMatch(new RegExp(`(?<!\\d)${pin}(?!\\d)`));
    expect(log).not.toContain(confirmed.data.token);
  });

  it('answers 503 with a translated message when the gateway refuses', async () => {
    gateway.status = 500;
    try {
      const refused = await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() } });
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ success: false, status: 503, message: PIN_NOT_SENT, code: 'pin_not_sent' });
      const swedish = await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() }, headers: { 'Accept-Language': 'sv' } });
      expect(swedish.body).toMatchObject({ message: 'PIN-koden kunde inte skickas. Försök igen.' });
    } finally {
      gateway.status = 204;
    }
  });
});

/**
 * The gateway's check of `X-Messenger-Signature`, as docs/server.md ("Login") shows it: the HMAC of
 * `<t>.<body>` compared in constant time, and a time within five minutes of the gateway's.
 */
function verifySignature(header: string | undefined, body: string, secret: string, nowSeconds: number): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t) || Math.abs(nowSeconds - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('a webhook with credentials and a secret', () => {
  const secret = 'whsec-test-0123456789';
  const clock = new ManualClock(Date.UTC(2026, 11, 8, 1, 0, 0));
  const guarded = new Gateway();
  let node: BuiltServer;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    const webhook = new URL(await guarded.start());
    // As an operator writes it in PIN_WEBHOOK_URL, read by the configuration: a password with a reserved character.
    const env = { PIN_WEBHOOK_URL: `http://gateway:p%40ss%3Aword@${webhook.host}${webhook.pathname}`, PIN_WEBHOOK_SECRET: secret };
    const { pinWebhookUrl, pinWebhookSecret } = configFromEnv(env);
    dir = mkdtempSync(path.join(tmpdir(), 'messenger-pins-'));
    node = await buildServer(testConfig(dir, { devPin: undefined, pinWebhookUrl, pinWebhookSecret }), { logStream: false, clock });
    url = await node.listen();
  });

  afterAll(async () => {
    await node.close();
    await guarded.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends user:password@ as Basic auth, not in the URL, and the PIN signs in', async () => {
    const phone = nextPhone();
    expect((await call(url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } })).data).toEqual({ status: 'sent' });
    const request = guarded.requests.at(-1);
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from('gateway:p@ss:word').toString('base64')}`);
    const pin = guarded.received.at(-1)?.pin as string;
    const confirmed = await call<{ token: string }>(url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin } });
    expect(confirmed.data.token).toBeTruthy();
  });

  it('signs each request with the secret and the time, so a forged or altered one is refused', async () => {
    await call(url, 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() } });
    const { headers, body } = guarded.requests.at(-1) as { headers: IncomingHttpHeaders; body: string };
    const header = headers['x-messenger-signature'] as string;
    const now = clock.now() / 1000;
    expect(header).toMatch(new RegExp(`^t=${now},v1=[0-9a-f]{64}$`));
    expect(verifySignature(header, body, secret, now)).toBe(true);
    expect(verifySignature(header, body.replace(/"pin":"\d{4}"/, '"pin":"0000"'), secret, now)).toBe(false);
    expect(verifySignature(header, body, 'another-secret', now)).toBe(false);
    expect(verifySignature(header, body, secret, now + 301)).toBe(false);
    // The time is the server's clock: a request made later carries a later time.
    clock.advance(60_000);
    await call(url, 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() } });
    const later = guarded.requests.at(-1) as { headers: IncomingHttpHeaders; body: string };
    expect(later.headers['x-messenger-signature']).toMatch(new RegExp(`^t=${now + 60},v1=`));
    expect(verifySignature(later.headers['x-messenger-signature'] as string, later.body, secret, now + 60)).toBe(true);
  });

  it('sends no signature without a secret', () => {
    expect(gateway.requests.at(-1)?.headers['x-messenger-signature']).toBeUndefined();
    expect(gateway.requests.at(-1)?.headers.authorization).toBeUndefined();
  });
});

describe('the configuration of PINs and logs', () => {
  it('refuses a production start that would print PINs, and a webhook that is not http(s)', () => {
    expect(() => configFromEnv({ NODE_ENV: 'production' })).toThrow(/PIN_WEBHOOK_URL/);
    expect(configFromEnv({ NODE_ENV: 'production', PIN_WEBHOOK_URL: 'https://sms.example/pin' }).pinWebhookUrl).toBe('https://sms.example/pin');
    expect(() => configFromEnv({ PIN_WEBHOOK_URL: 'file:///etc/passwd' })).toThrow(/PIN_WEBHOOK_URL/);
  });

  it('reads LOG_LEVEL and refuses an unknown one', () => {
    expect(configFromEnv({}).logLevel).toBe('info');
    expect(configFromEnv({ LOG_LEVEL: 'WARN' }).logLevel).toBe('warn');
    expect(() => configFromEnv({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('writes structured lines at LOG_LEVEL and above only', async () => {
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const dir = mkdtempSync(path.join(tmpdir(), 'messenger-log-'));
    const quiet = await buildServer(testConfig(dir, { logLevel: 'warn' }), { logStream });
    try {
      const url = await quiet.listen();
      await fetch(`${url}/healthz`);
      await fetch(`${url}/v1/nothing-here`);
      expect(lines.map((l) => JSON.parse(l) as { level: number }).every((l) => l.level >= 40)).toBe(true);
      expect(lines.join('')).not.toContain('incoming request');
    } finally {
      await quiet.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(log).toContain('"msg":"incoming request"');
  });
});
