import type { Page } from 'playwright';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, type TestServer } from '../support/server';
import { signInAs } from '../support/tabs';
import { newProfile, sleep, until, withApp } from './app';
import { type Figure, figure, formatNumber, median, repeat } from './harness';
import { listCentre, showStaticList } from './pageProbes';
import type { Sizes } from './sizes';

/**
 * Issue 20's figures: once the wheel stops, does the row the reader looks at stay where it is, whatever the
 * engine loads, spills or trims meanwhile? In the bench build in Chromium against the real server, in a group
 * with `sizes.bigGroup` generated messages: wheel bursts like a hand's (`sizes.driftBursts` of NOTCHES notches of
 * NOTCH_PX px, one a frame, PAUSE_MS apart: 8 are 24,000 px) up from the latest message, down from the very first one, and down from
 * far back; then the drift of the row in the middle of the list in the WATCH_MS after the input stopped, in px
 * (0: not a pixel). Its baseline is the same bursts on a static page of plain rows, measured the same way in the
 * same run: what the probe reads where nothing moves by itself.
 */

/** A window that shows about 18 message rows in the list, as the other chat figures. */
const VIEWPORT = { width: 1280, height: 1480 };
const NOTCHES = 10;
const NOTCH_PX = 300;
const PAUSE_MS = 250;
const WATCH_MS = 3_000;
/** Frames alike in a row that say the wheel's scrolling has ended (the last notch lands a frame or two late). */
const STILL_FRAMES = 4;
/** How far back the "far back" figure starts, at most (issue 20: 60,000 back in a 100,000-message group). */
const FAR_BACK = 60_000;

interface Frame {
  t: number;
  scrollTop: number;
  tops: Record<string, number>;
}

/** Starts recording, every animation frame, where each drawn row of the list is, and the wheel events. */
async function startTrack(page: Page): Promise<void> {
  await page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[role="log"]');
    if (!el) throw new Error('no message list on the page');
    const w = window as unknown as { __drift?: { frames: unknown[]; lastWheel: number; stop: boolean } };
    if (w.__drift) w.__drift.stop = true;
    const track = { frames: [] as unknown[], lastWheel: Number.NEGATIVE_INFINITY, stop: false };
    w.__drift = track;
    el.addEventListener(
      'wheel',
      (event) => {
        track.lastWheel = Math.max(track.lastWheel, event.timeStamp);
      },
      { passive: true, capture: true },
    );
    const frame = (t: number) => {
      if (track.stop) return;
      const box = el.getBoundingClientRect();
      const tops: Record<string, number> = {};
      for (const row of el.querySelectorAll<HTMLElement>('[data-message-id]')) {
        tops[row.dataset.messageId as string] = row.getBoundingClientRect().top - box.top;
      }
      track.frames.push({ t, scrollTop: el.scrollTop, tops });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/**
 * The drift after the input stopped (after the last wheel event, the first of STILL_FRAMES frames in a row in
 * which the list did not scroll): how far the row nearest the middle of the list moved at most in the WATCH_MS
 * that followed, in px. A row no longer drawn counts as a move of the list's height at least.
 */
async function readDrift(page: Page): Promise<{ drift: number; settleMs: number }> {
  const { frames, lastWheel, height } = await page.evaluate(() => {
    const track = (window as unknown as { __drift: { frames: Frame[]; lastWheel: number; stop: boolean } }).__drift;
    track.stop = true;
    return { frames: track.frames, lastWheel: track.lastWheel, height: document.querySelector('[role="log"]')?.clientHeight ?? 0 };
  });
  const stop = frames.findIndex(
    (f, i) => f.t > lastWheel && i + STILL_FRAMES <= frames.length && frames.slice(i, i + STILL_FRAMES).every((g) => g.scrollTop === f.scrollTop),
  );
  const at = frames[stop];
  if (!at) throw new Error('the list never stopped scrolling after the last wheel event');
  const onScreen = Object.entries(at.tops)
    .filter(([, top]) => top >= 0 && top < height)
    .sort((a, b) => a[1] - b[1]);
  const [id, top0] = onScreen[Math.floor(onScreen.length / 2)] ?? [];
  if (id === undefined || top0 === undefined) throw new Error('no row on screen when the input stopped');
  let drift = 0;
  for (const f of frames.slice(stop)) {
    if (f.t - at.t > WATCH_MS) break;
    const top = f.tops[id];
    drift = Math.max(drift, top === undefined ? Math.max(height, Math.abs(f.scrollTop - at.scrollTop)) : Math.abs(top - top0));
  }
  const last = frames[frames.length - 1] as Frame;
  if (last.t - at.t < WATCH_MS) throw new Error(`the row was watched for ${Math.round(last.t - at.t)} ms only`);
  // To the pixel: a row placed at a fraction of a pixel is drawn on the same one.
  return { drift: Math.round(drift), settleMs: at.t - lastWheel };
}

/** Wheel bursts at the middle of the list, `direction` 1 down (towards the latest), -1 up; then the drift. */
async function burstsThenDrift(page: Page, bursts: number, direction: 1 | -1): Promise<{ drift: number; settleMs: number }> {
  const { x, y } = await listCentre(page);
  await page.mouse.move(x, y);
  await startTrack(page);
  for (let b = 0; b < bursts; b++) {
    for (let i = 0; i < NOTCHES; i++) {
      await page.mouse.wheel(0, direction * NOTCH_PX);
      await sleep(16);
    }
    if (b < bursts - 1) await sleep(PAUSE_MS);
  }
  await sleep(WATCH_MS + 500);
  return readDrift(page);
}

/** The list shows rows and has stopped moving: the same rows at the same place for a few looks in a row. */
async function settled(page: Page, what: string): Promise<void> {
  let last = '';
  let stable = 0;
  await until(
    `the message list to settle (${what})`,
    async () => {
      const now = await page.evaluate(() => {
        const box = document.querySelector('[role="log"]');
        const ids = box ? [...box.querySelectorAll('[data-message-id]')].map((e) => e.getAttribute('data-message-id')).join(',') : '';
        return ids ? `${ids}@${box?.scrollTop ?? 0}` : '';
      });
      stable = now && now === last ? stable + 1 : 0;
      last = now;
      return stable >= 4 ? true : undefined;
    },
    60_000,
    100,
  ).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}; last seen: ${last.slice(-200)}`);
  });
}

interface Case {
  name: string;
  /** Where the chat opens: its latest message (null), or this message. */
  openAt: number | null;
  /** Wheeled up to the very top first (the first message: nothing older to load). */
  toTop: boolean;
  direction: 1 | -1;
}

/** One run of a case in the app: open the chat there, the bursts, the drift. */
async function appRun(page: Page, s: TestServer, conversationId: number, c: Case, bursts: number): Promise<{ drift: number; settleMs: number }> {
  await page.bringToFront();
  await page.goto(`${s.url}/inbox/${conversationId}${c.openAt === null ? '' : `?message=${c.openAt}`}`);
  await page.locator('[role="log"] [data-message-id]').first().waitFor({ timeout: 30_000 });
  await settled(page, `opened, ${c.name}`);
  if (c.toTop) {
    const { x, y } = await listCentre(page);
    await page.mouse.move(x, y);
    await until('the top of the list', async () => {
      await page.mouse.wheel(0, -1_000);
      await sleep(100);
      return (await page.locator('[role="log"]').evaluate((el) => el.scrollTop)) <= 0 ? true : undefined;
    });
    await settled(page, 'at the top');
  }
  return burstsThenDrift(page, bursts, c.direction);
}

/** The same bursts on a static page of plain rows, from its bottom (up) or its top (down). */
async function staticRun(page: Page, box: { x: number; y: number; width: number; height: number }, bursts: number, direction: 1 | -1): Promise<number> {
  await page.bringToFront();
  await showStaticList(page, box);
  if (direction === 1) await page.locator('[role="log"]').evaluate((el) => (el.scrollTop = 0));
  return (await burstsThenDrift(page, bursts, direction)).drift;
}

export function driftBench(sizes: Sizes, clientDir: string, log: (line: string) => void = () => undefined): Promise<Figure[]> {
  return withApp(clientDir, async ({ s, browser }) => {
    const reader = await signUp(s.url, 'Reader');
    const group = generateBigGroup(s.server.ctx.db, reader.id, sizes.bigGroup, Date.now());
    const ids = s.server.ctx.db
      .prepare<[number], { first: number; last: number }>('SELECT MIN(id) AS first, MAX(id) AS last FROM messages WHERE conversation_id = ?')
      .get(group.conversationId);
    if (!ids) throw new Error('the generated group has no messages');
    const farBack = Math.min(FAR_BACK, Math.floor(sizes.bigGroup * 0.6));
    const cases: Case[] = [
      { name: 'up from the latest message', openAt: null, toTop: false, direction: -1 },
      { name: 'down from the first message', openAt: ids.first, toTop: true, direction: 1 },
      { name: `down from ${formatNumber(farBack)} messages back`, openAt: ids.last - farBack, toTop: false, direction: 1 },
    ];
    const context = await newProfile(browser, { viewport: VIEWPORT });
    try {
      const page = await context.newPage();
      await page.goto(s.url);
      await page.waitForFunction(() => 'engine' in window);
      await signInAs(page, reader.phone);
      await page.goto(`${s.url}/inbox/${group.conversationId}`);
      await page.locator('[role="log"] [data-message-id]').first().waitFor({ timeout: 30_000 });
      const { box } = await listCentre(page);
      const staticPage = await context.newPage();
      const figures: Figure[] = [];
      for (const c of cases) {
        const runs = await repeat(sizes.runs, async (run) => {
          const app = await appRun(page, s, group.conversationId, c, sizes.driftBursts);
          const still = await staticRun(staticPage, box, sizes.driftBursts, c.direction);
          log(`drift: ${c.name}, run ${run + 1}: ${app.drift} px (static page: ${still} px)`);
          return { app, still };
        });
        figures.push(
          figure({
            benchmark: 'drift',
            name: `drift of the row read after wheel bursts ${c.name}, ${formatNumber(sizes.bigGroup)}-message group`,
            unit: 'px',
            runs: runs.map((r) => r.app.drift),
            baseline: { name: 'the same bursts on a static page of plain rows', runs: runs.map((r) => r.still) },
            target: { of: 'value', op: '<=', bound: 0 },
            note: `${sizes.driftBursts} bursts of ${NOTCHES} wheel notches of ${NOTCH_PX} px (one a frame, ${PAUSE_MS} ms apart), then the row in the middle of the list watched for ${
              WATCH_MS / 1000
            } s from when the list stopped scrolling (${formatNumber(median(runs.map((r) => r.app.settleMs)))} ms after the last wheel event)`,
          }),
        );
      }
      return figures;
    } finally {
      await context.close();
    }
  });
}
