import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import { PIN_LOCK_MS } from '../../server/routes/auth';
import { call, nextPhone, TEST_PIN, useTestServer } from '../support/server';

/**
 * The wrong-PIN lockout (docs/server.md "Login", "Refusal codes"): the fifth wrong try of a PIN locks the
 * number for PIN_LOCK_MS, and every try and PIN request meanwhile, the right PIN too, is told it is locked
 * and when it opens (`code`, `retry_after`, Retry-After), never that the PIN "expired".
 */

const clock = new ManualClock();
const s = useTestServer({}, { clock });
const MINUTE = 60_000;

const requestPin = (phone: string, language = 'en') =>
  call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone }, headers: { 'Accept-Language': language } });
const confirm = (phone: string, pin: string, language = 'en') =>
  call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin }, headers: { 'Accept-Language': language } });

describe('the wrong-PIN lockout', () => {
  it('locks the number at the fifth wrong try and says when it opens, to the right PIN and a new request too', async () => {
    const phone = nextPhone();
    expect((await requestPin(phone)).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      expect((await confirm(phone, '0000')).body).toMatchObject({ status: 400, code: 'invalid_pin' });
    }
    expect((await confirm(phone, '0000')).body).toEqual({
      success: false,
      status: 429,
      message: 'Too many wrong PIN codes. This number is locked; try again in 15 minutes.',
      code: 'pin_locked',
      retry_after: PIN_LOCK_MS / 1000,
    });

    clock.advance(5 * MINUTE);
    // The right PIN, while locked: the lock and what is left of it, in the request's language.
    const right = await confirm(phone, TEST_PIN, 'sv');
    expect(right.status).toBe(429);
    expect(right.body).toEqual({
      success: false,
      status: 429,
      message: 'För många felaktiga PIN-koder. Numret är låst; försök igen om 10 minuter.',
      code: 'pin_locked',
      retry_after: 600,
    });
    // A new PIN is refused as well: it would open the lock.
    expect((await requestPin(phone)).body).toMatchObject({ status: 429, code: 'pin_locked', retry_after: 600 });

    // When it said, the number opens: the old PIN is void, a new one signs in.
    clock.advance(10 * MINUTE);
    expect((await confirm(phone, TEST_PIN)).body).toMatchObject({ status: 400, code: 'pin_expired' });
    expect((await requestPin(phone)).status).toBe(200);
    expect((await confirm(phone, TEST_PIN)).status).toBe(200);
  });

  it('answers the tries of a locked number with Retry-After, and does not count them', async () => {
    const phone = nextPhone();
    await requestPin(phone);
    for (let i = 0; i < 5; i++) await confirm(phone, '0000');
    for (let i = 0; i < 20; i++) await confirm(phone, '0000');
    const raw = await fetch(`${s.url}/v1/auth/pin/confirm`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ phone_nr: phone, pin: TEST_PIN }).toString(),
    });
    expect(raw.status).toBe(429);
    expect(raw.headers.get('retry-after')).toBe(String(PIN_LOCK_MS / 1000));
    // Five failures, not twenty-five: the day's limit (ten) is not reached by tries while locked.
    clock.advance(PIN_LOCK_MS);
    await requestPin(phone);
    expect((await confirm(phone, TEST_PIN)).status).toBe(200);
  });

  it('says when the day’s limit of wrong tries opens', async () => {
    const phone = nextPhone();
    for (let round = 0; round < 2; round++) {
      await requestPin(phone);
      for (let i = 0; i < 4; i++) await confirm(phone, '0000');
      const last = await confirm(phone, '0000');
      expect(last.body).toMatchObject({ status: 429, code: round === 0 ? 'pin_locked' : 'pin_failures_limited' });
      clock.advance(PIN_LOCK_MS + MINUTE);
    }
    // The first failure was 32 minutes ago: the day's window lets the number in again 23 h 28 min from now.
    const refused = await confirm(phone, TEST_PIN);
    expect(refused.body).toMatchObject({ status: 429, code: 'pin_failures_limited', retry_after: 24 * 3600 - 32 * 60 });
  });
});
