import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';
import { largestMove, rowAfterInput, type Track, trackBursts, WATCH_MS } from '../support/wheelDrift';
import { expectNumberRun, loadedNumbers, openAtLatest } from './chat-view-support';

/**
 * Nothing jumps near the start of a history (issue 20): in a 3,000-message group the reader wheels up to the very
 * first message, then back down about 24,000 px in bursts, as a hand on a wheel does, and stops. Meanwhile the
 * engine trims the oldest pages (older history is behind the window again) and the list makes room above its
 * rows once the reader rests. From the moment the input stops, the row in the middle of the list stays where it
 * is, to the pixel, for 3 s. Then the same bursts back up towards the first message, and the same look.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const COUNT = 3_000;
/** The bursts: this many, of NOTCHES wheel notches of NOTCH_PX px each (one per frame), PAUSE_MS apart (tests/support/wheelDrift.ts). */
const BURSTS = 8;

/** The "#n" of each message row on screen, top to bottom. */
const visibleNumbers = (page: Page) =>
  page.getByRole('log').evaluate((el) => {
    const box = el.getBoundingClientRect();
    return [...el.querySelectorAll<HTMLElement>('[data-message-id]')]
      .map((row) => ({ n: Number(/^#(\d+) /.exec(row.querySelector('.msg-text')?.textContent ?? '')?.[1] ?? 0), top: row.getBoundingClientRect().top }))
      .filter((r) => r.n > 0 && r.top >= box.top && r.top < box.bottom)
      .sort((a, b) => a.top - b.top)
      .map((r) => r.n);
  });

/**
 * The row read once the input stopped (tests/support/wheelDrift.ts): how far it moved in the WATCH_MS that
 * followed, frame by frame.
 */
function stillness(track: Track) {
  const read = rowAfterInput(track);
  const moved = largestMove(read, () => Number.POSITIVE_INFINITY);
  const path: string[] = [];
  let last = read.top0.toFixed(1);
  for (const f of read.watch) {
    const top = f.tops[read.id];
    const where = top === undefined ? 'not drawn' : top.toFixed(1);
    if (where !== last) path.push(`${Math.round(f.t - read.at.t)} ms: ${where}`);
    last = where;
  }
  return { ...read, moved, path };
}

async function expectStill(page: Page, track: Track, what: string) {
  const result = stillness(track);
  expect(result.watched, 'the row was watched for the whole time').toBeGreaterThanOrEqual(WATCH_MS);
  const now = await page.getByRole('log').evaluate((el, id) => {
    const row = el.querySelector(`[data-message-id="${id}"]`);
    return row ? row.getBoundingClientRect().top - el.getBoundingClientRect().top : null;
  }, result.id);
  const detail = `${what}: message ${result.id} at ${result.top0.toFixed(1)} px, ${Math.round(result.afterWheel)} ms after the last wheel event; then ${
    result.path.slice(0, 8).join(', ') || 'no move'
  }; ${JSON.stringify(await visibleNumbers(page))} on screen now`;
  expect(result.moved, detail).toBeLessThanOrEqual(1);
  expect(now === null ? null : Math.abs(now - result.top0), detail).not.toBeNull();
  expect(Math.abs((now as number) - result.top0), detail).toBeLessThanOrEqual(1);
}

describe('the start of a long history', () => {
  it('the row read stays still once the wheel stops, down from the first message and back up', async () => {
    const user = await signUp(s.url, 'Reader');
    const group = await generateBigGroup(s.server.ctx.db, user.id, COUNT, Date.now());
    const id = group.conversationId;
    const context = await chromium.context({ viewport: { width: 1000, height: 800 } });
    const page = await openAtLatest(context, s.url, user.phone, id, COUNT);

    // Up to the very first message, fast.
    for (let step = 0; step < 2_000; step++) {
      await page.mouse.wheel(0, -1_500);
      await page.waitForTimeout(16);
      if (step % 10 === 9 && (await visibleNumbers(page)).includes(1)) break;
    }
    await expect.poll(async () => (await visibleNumbers(page)).includes(1)).toBe(true);
    await expect.poll(async () => (await loadedNumbers(page, id)).numbers[0]).toBe(1);
    await page.waitForTimeout(500);

    // Down about 24,000 px in bursts, and stop: the oldest pages are trimmed meanwhile.
    const down = await trackBursts(page, BURSTS, 1);
    const trimmed = await loadedNumbers(page, id);
    expectNumberRun(trimmed.numbers);
    expect(trimmed.numbers[0], 'the oldest pages were trimmed on the way down').toBeGreaterThan(1);
    await expectStill(page, down, 'down from the first message');

    // And back up towards the first message: the oldest pages come back above the row read.
    const up = await trackBursts(page, BURSTS, -1);
    expectNumberRun((await loadedNumbers(page, id)).numbers);
    await expectStill(page, up, 'back up towards the first message');
  }, 240_000);
});
