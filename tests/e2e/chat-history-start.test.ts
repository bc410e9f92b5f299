import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, TEST_PIN, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, useChromium } from '../support/tabs';
import { expectNumberRun, loadedNumbers, signInAs } from './chat-view-support';

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
/** The bursts: this many, of NOTCHES wheel notches of NOTCH_PX px each (one per frame), PAUSE_MS apart. */
const BURSTS = 8;
const NOTCHES = 10;
const NOTCH_PX = 300;
const PAUSE_MS = 250;
/** How long the reader looks at the row after the input stopped. */
const WATCH_MS = 3_000;

interface Frame {
  t: number;
  scrollTop: number;
  /** Each drawn message row's top, relative to the list's box, by message id. */
  tops: Record<string, number>;
}
interface Track {
  frames: Frame[];
  /** When the last wheel event reached the list (the frames' clock). */
  lastWheel: number;
}

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

/** Starts recording, every animation frame, where each drawn message row is in the list, and the wheel events. */
async function startTrack(page: Page): Promise<void> {
  await page.getByRole('log').evaluate((el) => {
    const w = window as unknown as { __still?: { frames: unknown[]; lastWheel: number; stop: boolean } };
    if (w.__still) w.__still.stop = true;
    const track = { frames: [] as unknown[], lastWheel: Number.NEGATIVE_INFINITY, stop: false };
    w.__still = track;
    el.addEventListener('wheel', (event) => {
      track.lastWheel = Math.max(track.lastWheel, event.timeStamp);
    }, { passive: true, capture: true });
    const frame = (t: number) => {
      if (track.stop) return;
      const box = el.getBoundingClientRect();
      const tops: Record<string, number> = {};
      for (const row of el.querySelectorAll<HTMLElement>('[data-message-id]')) tops[row.dataset.messageId as string] = row.getBoundingClientRect().top - box.top;
      track.frames.push({ t, scrollTop: el.scrollTop, tops });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

async function stopTrack(page: Page): Promise<Track> {
  return page.evaluate(() => {
    const track = (window as unknown as { __still: { frames: Frame[]; lastWheel: number; stop: boolean } }).__still;
    track.stop = true;
    return { frames: track.frames, lastWheel: track.lastWheel };
  });
}

/** Wheel bursts over the middle of the list: `delta` px a notch (negative: up). */
async function bursts(page: Page, delta: number): Promise<void> {
  for (let b = 0; b < BURSTS; b++) {
    for (let i = 0; i < NOTCHES; i++) {
      await page.mouse.wheel(0, delta);
      await page.waitForTimeout(16);
    }
    if (b < BURSTS - 1) await page.waitForTimeout(PAUSE_MS);
  }
}

/** Frames alike in a row that say the wheel's scrolling has ended (the last notch lands a frame or two late). */
const STILL_FRAMES = 4;

/**
 * Once the input stopped (after the last wheel event, the first of STILL_FRAMES frames in a row in which the list
 * did not scroll: about 50 ms, well before the list's own rest of 150 ms), the row nearest the middle of the list
 * at that frame: how far it moved in the WATCH_MS that followed, frame by frame.
 */
function stillness(track: Track, height: number) {
  const { frames, lastWheel } = track;
  const stop = frames.findIndex(
    (f, i) => f.t > lastWheel && i + STILL_FRAMES <= frames.length && frames.slice(i, i + STILL_FRAMES).every((g) => g.scrollTop === f.scrollTop),
  );
  if (stop < 0) throw new Error('the list never stopped scrolling after the last wheel event');
  const at = frames[stop] as Frame;
  const onScreen = Object.entries(at.tops)
    .filter(([, top]) => top >= 0 && top < height)
    .sort((a, b) => a[1] - b[1]);
  const [id, top0] = onScreen[Math.floor(onScreen.length / 2)] ?? [];
  if (id === undefined || top0 === undefined) throw new Error('no message row on screen when the input stopped');
  let moved = 0;
  const path: string[] = [];
  let last = top0.toFixed(1);
  for (const f of frames.slice(stop)) {
    if (f.t - at.t > WATCH_MS) break;
    const top = f.tops[id];
    moved = Math.max(moved, top === undefined ? Number.POSITIVE_INFINITY : Math.abs(top - top0));
    const where = top === undefined ? 'not drawn' : top.toFixed(1);
    if (where !== last) path.push(`${Math.round(f.t - at.t)} ms: ${where}`);
    last = where;
  }
  const watched = (frames[frames.length - 1] as Frame).t - at.t;
  return { id, top0, moved, path, watched, afterWheel: at.t - lastWheel };
}

async function expectStill(page: Page, track: Track, what: string) {
  const height = await page.getByRole('log').evaluate((el) => el.clientHeight);
  const result = stillness(track, height);
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
    const group = generateBigGroup(s.server.ctx.db, user.id, COUNT, Date.now());
    const id = group.conversationId;
    const context = await chromium.context({ viewport: { width: 1000, height: 800 } });
    const page = await openTab(context, s.url);
    await signInAs(page, user.phone, TEST_PIN);
    await page.goto(`${s.url}/inbox/${id}`);
    const log = page.getByRole('log');
    await expect.poll(() => log.getByText(new RegExp(`^#${COUNT} `)).count()).toBe(1);
    const box = await log.boundingBox();
    if (!box) throw new Error('the list is not on the page');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);

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
    await startTrack(page);
    await bursts(page, NOTCH_PX);
    await page.waitForTimeout(WATCH_MS + 500);
    const down = await stopTrack(page);
    const trimmed = await loadedNumbers(page, id);
    expectNumberRun(trimmed.numbers);
    expect(trimmed.numbers[0], 'the oldest pages were trimmed on the way down').toBeGreaterThan(1);
    await expectStill(page, down, 'down from the first message');

    // And back up towards the first message: the oldest pages come back above the row read.
    await startTrack(page);
    await bursts(page, -NOTCH_PX);
    await page.waitForTimeout(WATCH_MS + 500);
    const up = await stopTrack(page);
    expectNumberRun((await loadedNumbers(page, id)).numbers);
    await expectStill(page, up, 'back up towards the first message');
  }, 240_000);
});
