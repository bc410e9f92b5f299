import type { Page } from 'playwright';
import { sql } from '../../server/db/store';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, type TestServer } from '../support/server';
import { signInAs } from '../support/tabs';
import { largestMove, NOTCH_PX, NOTCHES, PAUSE_MS, rowAfterInput, trackBursts, WATCH_MS } from '../support/wheelDrift';
import { newProfile, sleep, until, withApp } from './app';
import { type Figure, figure, formatNumber, median, repeat } from './harness';
import { listCentre, settled, showStaticList } from './pageProbes';
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
/** How far back the "far back" figure starts, at most (issue 20: 60,000 back in a 100,000-message group). */
const FAR_BACK = 60_000;

/**
 * Wheel bursts at the middle of the list, `direction` 1 down (towards the latest), -1 up; then the drift after the
 * input stopped: how far the row nearest the middle of the list moved at most in the WATCH_MS that followed, in px.
 * A row no longer drawn counts as a move of the list's height at least.
 */
export async function burstsThenDrift(page: Page, bursts: number, direction: 1 | -1): Promise<{ drift: number; settleMs: number }> {
  const { x, y } = await listCentre(page);
  await page.mouse.move(x, y);
  const read = rowAfterInput(await trackBursts(page, bursts, direction));
  const drift = largestMove(read, (f) => Math.max(read.height, Math.abs(f.scrollTop - read.at.scrollTop)));
  if (read.watched < WATCH_MS) throw new Error(`the row was watched for ${Math.round(read.watched)} ms only`);
  // To the pixel: a row placed at a fraction of a pixel is drawn on the same one.
  return { drift: Math.round(drift), settleMs: read.afterWheel };
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
  await settled(page, `opened, ${c.name}`, 60_000);
  if (c.toTop) {
    const { x, y } = await listCentre(page);
    await page.mouse.move(x, y);
    await until('the top of the list', async () => {
      await page.mouse.wheel(0, -1_000);
      await sleep(100);
      return (await page.locator('[role="log"]').evaluate((el) => el.scrollTop)) <= 0 ? true : undefined;
    });
    await settled(page, 'at the top', 60_000);
  }
  return burstsThenDrift(page, bursts, c.direction);
}

/** The same bursts on a static page of plain rows, from its bottom (up) or its top (down). */
export async function staticRun(page: Page, box: { x: number; y: number; width: number; height: number }, bursts: number, direction: 1 | -1): Promise<number> {
  await page.bringToFront();
  await showStaticList(page, box);
  if (direction === 1) await page.locator('[role="log"]').evaluate((el) => (el.scrollTop = 0));
  return (await burstsThenDrift(page, bursts, direction)).drift;
}

export function driftBench(sizes: Sizes, clientDir: string, log: (line: string) => void = () => undefined): Promise<Figure[]> {
  return withApp(clientDir, async ({ s, browser }) => {
    const reader = await signUp(s.url, 'Reader');
    const group = await generateBigGroup(s.server.ctx.db, reader.id, sizes.bigGroup, Date.now());
    const ids = await s.server.ctx.db.get<{ first: number; last: number }>(
      sql`SELECT MIN(id) AS first, MAX(id) AS last FROM messages WHERE conversation_id = ${group.conversationId}`,
    );
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
