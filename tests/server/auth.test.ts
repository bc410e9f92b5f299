import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, nextPhone, signUp, startTestServer, TEST_PIN, type TestServer } from '../support/server';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('login', () => {
  it('issues a PIN, confirms it once, and registers a nickname', async () => {
    const phone = nextPhone();
    const pin = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    expect(pin.status).toBe(200);
    expect(pin.body).toEqual({ success: true, data: { status: 'sent' } });

    const confirm = await call<{ token: string; user_id: number }>(s.url, 'POST', '/v1/auth/pin/confirm', {
      form: { phone_nr: phone, pin: TEST_PIN },
    });
    expect(confirm.data.token.length).toBeGreaterThanOrEqual(22);
    const token = confirm.data.token;

    // Single use: the same PIN does not work twice.
    const again = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
    expect(again.status).toBe(400);

    const before = await call<{ account: { nickname: string; phone_nr: string } }>(s.url, 'GET', '/v1/me', { token });
    expect(before.data.account).toMatchObject({ nickname: '', phone_nr: phone, country_code: '46', deleted_at: '0' });

    const empty = await call(s.url, 'POST', '/v2/me/register', { token, json: { name: '   ' } });
    expect(empty.body).toEqual({ success: false, status: 400, message: 'Please enter a nickname' });
    const long = await call(s.url, 'POST', '/v2/me/register', { token, json: { name: 'x'.repeat(51) } });
    expect(long.status).toBe(400);

    const registered = await call<{ account: { nickname: string } }>(s.url, 'POST', '/v2/me/register', {
      token,
      json: { name: '  Anna  ' },
    });
    expect(registered.data.account.nickname).toBe('Anna');

    const updated = await call<{ account: { email: string } }>(s.url, 'PUT', '/v1/me', {
      token,
      form: { email: 'anna@example.org' },
    });
    expect(updated.data.account.email).toBe('anna@example.org');
  });

  it('stores only a hash of the token', async () => {
    const user = await signUp(s.url, 'Hash');
    const rows = s.server.ctx.db.prepare('SELECT hash FROM tokens').all() as { hash: string }[];
    expect(rows.some((r) => r.hash === user.token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expect((await call(s.url, 'GET', '/v1/me')).body).toEqual({ success: false, status: 401, message: 'Unauthorized' });
    expect((await call(s.url, 'GET', '/v1/me', { token: 'nope' })).status).toBe(401);
    expect((await call(s.url, 'GET', '/v2/conversations', { token: 'x'.repeat(43) })).status).toBe(401);
  });

  it('refuses bad phone numbers and bad PIN shapes with clear 4xx messages', async () => {
    const bad = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: '+4612' } });
    expect(bad.body).toEqual({ success: false, status: 400, message: 'Please enter a valid phone number' });
    const missing = await call(s.url, 'POST', '/v1/auth/pin', { form: {} });
    expect(missing.status).toBe(400);
    const malformed = await call(s.url, 'POST', '/v1/auth/pin', {
      body: '{"phone_nr":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const shape = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: nextPhone(), pin: '12a4' } });
    expect(shape.body).toMatchObject({ status: 400, message: 'Invalid PIN code' });
  });

  it('lists Sweden and Indonesia with patterns that accept real mobile numbers', async () => {
    const { countries } = (
      await call<{ countries: { cc: string; validation: string; validation_abroad: string }[] }>(
        s.url,
        'GET',
        '/v1/countries',
      )
    ).data;
    const se = countries.find((c) => c.cc === '46');
    const id = countries.find((c) => c.cc === '62');
    expect(se && id).toBeTruthy();
    expect(new RegExp(se!.validation).test('0701234567')).toBe(true);
    expect(new RegExp(se!.validation_abroad).test('+46701234567')).toBe(true);
    expect(new RegExp(se!.validation_abroad).test('+46812345678')).toBe(false);
    expect(new RegExp(id!.validation).test('081234567890')).toBe(true);
    expect(new RegExp(id!.validation_abroad).test('+6281234567890')).toBe(true);
  });
});

describe('PIN limits', () => {
  it('invalidates a PIN after five wrong tries', async () => {
    const phone = nextPhone();
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    for (let i = 0; i < 5; i++) {
      const wrong = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: '9999' } });
      expect(wrong.body).toMatchObject({ status: 400, message: 'Invalid PIN code' });
    }
    const right = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
    expect(right.status).toBe(400);
    expect(right.body).toMatchObject({ success: false });
  });

  it('locks a number after ten wrong tries in a day, even with the right PIN', async () => {
    const phone = nextPhone();
    for (let round = 0; round < 2; round++) {
      await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
      for (let i = 0; i < 5; i++) {
        await call(s.url, 'POST', '/v1/auth/pin/confirm', {
          form: { phone_nr: phone, pin: '0000' },
          headers: { 'X-Forwarded-For': `10.0.0.${i}` },
        });
      }
    }
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    const locked = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
    expect(locked.status).toBe(429);
  });

  it('rate-limits PIN requests per number', async () => {
    const phone = nextPhone();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } })).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});
