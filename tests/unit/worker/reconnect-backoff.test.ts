import { describe, expect, it } from 'vitest';
import { LOG_LIMIT, LOG_WINDOW_MS, rateLimitedLog } from '../../../src/worker/rateLimitedLog';
import { FIRST_BACKOFF_MS, MAX_BACKOFF_MS, ReconnectBackoff, STABLE_AFTER_MS } from '../../../src/worker/reconnectBackoff';
import { manualClock } from './manualClock';

describe('ReconnectBackoff', () => {
  it('reconnects at once after a good connection, then ever more slowly while connections keep dying', async () => {
    const { clock, advance } = manualClock();
    const backoff = new ReconnectBackoff(clock);
    const delays: number[] = [];
    // A worker that dies right after every connection, for 30 seconds.
    let spent = 0;
    while (spent < 30_000) {
      const delay = backoff.next();
      delays.push(delay);
      await advance(delay + 5);
      spent += delay + 5;
    }
    expect(delays.slice(0, 6)).toEqual([0, FIRST_BACKOFF_MS, 2 * FIRST_BACKOFF_MS, 4 * FIRST_BACKOFF_MS, 8 * FIRST_BACKOFF_MS, 16 * FIRST_BACKOFF_MS]);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_BACKOFF_MS);
    // Not hundreds: a handful of attempts in those 30 seconds.
    expect(delays.length).toBeLessThan(12);

    // A connection that lived STABLE_AFTER_MS was good: the next loss reconnects at once again.
    await advance(STABLE_AFTER_MS + MAX_BACKOFF_MS);
    expect(backoff.next()).toBe(0);
    expect(backoff.next()).toBe(FIRST_BACKOFF_MS);
  });

  it('never waits longer than MAX_BACKOFF_MS', async () => {
    const { clock, advance } = manualClock();
    const backoff = new ReconnectBackoff(clock);
    for (let i = 0; i < 40; i++) {
      const delay = backoff.next();
      expect(delay).toBeLessThanOrEqual(MAX_BACKOFF_MS);
      await advance(delay);
    }
    expect(backoff.next()).toBe(MAX_BACKOFF_MS);
  });
});

describe('rateLimitedLog', () => {
  it('writes a message a few times a minute at most, and says how many it held back', async () => {
    const { clock, advance } = manualClock();
    const written: string[] = [];
    const log = rateLimitedLog((message) => written.push(message), clock);
    // 800 times in 30 seconds, as a worker that keeps dying did.
    for (let i = 0; i < 800; i++) {
      log('the engine worker is gone; reconnecting');
      await advance(37);
    }
    expect(written).toHaveLength(LOG_LIMIT);
    expect(written[LOG_LIMIT - 1]).toContain('repeats are not logged');

    // Another message has its own count.
    log('engine.setViewport failed', new Error('x'));
    expect(written).toHaveLength(LOG_LIMIT + 1);

    // The next minute: the count starts again, and the first one says what was held back.
    await advance(LOG_WINDOW_MS);
    log('the engine worker is gone; reconnecting');
    expect(written.at(-1)).toBe(`the engine worker is gone; reconnecting (${800 - LOG_LIMIT} more of these were not logged)`);
  });

  it('passes the details on with the message', () => {
    const { clock } = manualClock();
    const written: unknown[][] = [];
    const log = rateLimitedLog((...args) => written.push(args), clock);
    const error = new Error('boom');
    log('saving the engine state failed', error);
    expect(written).toEqual([['saving the engine state failed', error]]);
  });
});
