import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import { PIN_FAILURES_PER_DAY, PIN_TTL_MS } from '../../server/routes/auth';
import { call, nextPhone, startTestServer, TEST_PIN, type TestServer } from '../support/server';

const clock = new ManualClock();
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { clock });
});
afterAll(() => s.close());

const requestPin = (phone: string) => call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
const confirm = (phone: string, pin: string) => call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin } });

describe('PIN lifetime', () => {
  it('accepts a PIN until ten minutes have passed, and not after', async () => {
    const early = nextPhone();
    await requestPin(early);
    clock.advance(PIN_TTL_MS - 1000);
    expect((await confirm(early, TEST_PIN)).status).toBe(200);

    const late = nextPhone();
    await requestPin(late);
    clock.advance(PIN_TTL_MS);
    const expired = await confirm(late, TEST_PIN);
    expect(expired.body).toEqual({
      success: false,
      status: 400,
      message: 'The PIN code has expired or was never sent. Please request a new one.',
      code: 'pin_expired',
    });
  });

  it('unlocks a locked number once the 24-hour window has passed', async () => {
    const phone = nextPhone();
    for (let round = 0; round < PIN_FAILURES_PER_DAY / 5; round++) {
      await requestPin(phone);
      for (let i = 0; i < 5; i++) await confirm(phone, '0000');
      clock.advance(16 * 60_000);
    }
    await requestPin(phone);
    expect((await confirm(phone, TEST_PIN)).status).toBe(429);
    clock.advance(24 * 60 * 60_000);
    await requestPin(phone);
    expect((await confirm(phone, TEST_PIN)).status).toBe(200);
  });
});
