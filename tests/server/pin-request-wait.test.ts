import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import { nextPhone, useTestServer } from '../support/server';

/**
 * Issue 23, item 5: a number refused more PIN requests is told when it may ask again, in minutes in its
 * language and in seconds as Retry-After, from when the oldest request counted leaves the 15-minute window.
 */

const clock = new ManualClock();
const s = useTestServer({}, { clock });

const MINUTE = 60_000;

async function ask(phone: string, language = 'en') {
  const response = await fetch(`${s.url}/v1/auth/pin`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': language },
    body: new URLSearchParams({ phone_nr: phone }).toString(),
  });
  const body = (await response.json()) as { message?: string };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), message: body.message };
}

describe('the PIN request limit', () => {
  it('says how long to wait, counting down as the oldest counted request ages', async () => {
    const phone = nextPhone();
    // Five requests a minute apart (at 0, 1, 2, 3 and 4 minutes): the sixth, at 5 minutes, is refused.
    for (let i = 0; i < 5; i++) {
      expect((await ask(phone)).status).toBe(200);
      clock.advance(MINUTE);
    }
    // The first request leaves the window at 15 minutes: 10 minutes from now.
    expect(await ask(phone)).toEqual({
      status: 429,
      retryAfter: '600',
      message: 'Too many PIN requests for this number. Try again in 10 minutes.',
    });
    expect((await ask(phone, 'sv')).message).toBe(
      'För många begäranden om PIN-kod för det här numret. Försök igen om 10 minuter.',
    );

    // Part of a minute left counts as a whole one, and one minute is said in the singular.
    clock.advance(9 * MINUTE + 30_000);
    expect(await ask(phone)).toEqual({
      status: 429,
      retryAfter: '30',
      message: 'Too many PIN requests for this number. Try again in 1 minute.',
    });
    expect((await ask(phone, 'sv')).message).toBe(
      'För många begäranden om PIN-kod för det här numret. Försök igen om 1 minut.',
    );

    // When it said: the first request has left the window, and the number may ask again.
    clock.advance(30_000);
    expect((await ask(phone)).status).toBe(200);
    // That made five in the window again; the next wait runs to when the second request (at 1 minute) leaves.
    expect(await ask(phone)).toMatchObject({ status: 429, retryAfter: '60' });
  });
});
