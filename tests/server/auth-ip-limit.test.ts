import { describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { AUTH_IP_MESSAGE } from '../../server/http/authIpLimit';
import { call, nextPhone, useTestServer } from '../support/server';

/**
 * Issue 21: one address may start or finish only so many sign-ins per window, whatever numbers it tries
 * (the per-number PIN limits stop guessing one number; this stops walking through many). Behind a proxy the
 * address is X-Forwarded-For's, as far as TRUST_PROXY allows.
 */

const pinRequest = (base: string, headers: Record<string, string> = {}) =>
  call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() }, headers });

describe('the per-address limit on the sign-in routes', () => {
  const s = useTestServer({ authIpLimit: 3, authIpWindowMs: 60_000 });

  it('refuses the request past the limit with 429, Retry-After and a translated message, across both routes', async () => {
    expect((await pinRequest(s.url)).status).toBe(200);
    expect((await pinRequest(s.url)).status).toBe(200);
    const confirm = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: nextPhone(), pin: '0000' } });
    expect(confirm.status).not.toBe(429);
    const refused = await pinRequest(s.url);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, status: 429, message: AUTH_IP_MESSAGE, code: 'sign_in_attempts_limited' });
    expect((refused.body as { retry_after?: number }).retry_after).toBeGreaterThan(0);
    const swedish = await pinRequest(s.url, { 'Accept-Language': 'sv' });
    expect(swedish.body).toMatchObject({ status: 429, message: 'För många inloggningsförsök från den här adressen. Vänta en minut.' });
    const raw = await fetch(`${s.url}/v1/auth/pin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `phone_nr=${encodeURIComponent(nextPhone())}`,
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('leaves every other route alone', async () => {
    expect((await call(s.url, 'GET', '/v1/countries')).status).toBe(200);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless the proxy is trusted', async () => {
    const spoofed = await pinRequest(s.url, { 'X-Forwarded-For': '203.0.113.9' });
    expect(spoofed.status).toBe(429);
  });
});

describe('behind a trusted proxy', () => {
  const s = useTestServer({ authIpLimit: 1, authIpWindowMs: 60_000, trustProxy: '127.0.0.1' });

  it('counts each forwarded client address on its own', async () => {
    expect((await pinRequest(s.url, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(200);
    expect((await pinRequest(s.url, { 'X-Forwarded-For': '203.0.113.1' })).status).toBe(429);
    expect((await pinRequest(s.url, { 'X-Forwarded-For': '203.0.113.2' })).status).toBe(200);
  });
});

describe('its configuration', () => {
  it('reads AUTH_IP_LIMIT, AUTH_IP_WINDOW_MS and TRUST_PROXY, limited by default', () => {
    const defaults = configFromEnv({});
    expect(defaults.authIpLimit).toBeGreaterThan(0);
    expect(defaults.trustProxy).toBe(false);
    const set = configFromEnv({ AUTH_IP_LIMIT: '10', AUTH_IP_WINDOW_MS: '5000', TRUST_PROXY: '10.0.0.0/8,127.0.0.1' });
    expect(set).toMatchObject({ authIpLimit: 10, authIpWindowMs: 5000, trustProxy: '10.0.0.0/8,127.0.0.1' });
    expect(configFromEnv({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(configFromEnv({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(() => configFromEnv({ AUTH_IP_LIMIT: '-1' })).toThrow(/AUTH_IP_LIMIT/);
  });
});
