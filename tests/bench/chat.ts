import type { BrowserContext, Page } from 'playwright';
import { sql } from '../../server/db/store';
import { generateBigGroup } from '../../server/seed/history';
import { call, signUp, TEST_PIN, type TestServer } from '../support/server';
import { signInAs } from '../support/tabs';
import { newProfile, sleep, withApp } from './app';
import { BrowserTargets } from './cdp';
import { type Figure, figure, formatNumber, median, repeat } from './harness';
import { flickUp, listCentre, readScrollTrack, settled, showStaticList, startScrollTrack } from './pageProbes';
import type { Sizes } from './sizes';

/**
 * Issue 11's chat figures, in the bench build in Chromium against the real server, in a group with
 * `sizes.bigGroup` generated messages (server/seed/history.ts):
 * - message-row renders per incoming message with about 18 rows on screen (the bench build's render
 *   counter in MessageRow), against the rows mounted (what re-rendering every row would cost);
 * - the content distance a fast mouse-wheel flick covers up the history, against the same wheel input
 *   on a static page of plain rows in the same place;
 * - the JS heap of the tab and the engine worker after scrolling up `heapScrollMessages` messages, against
 *   the heap before, both after a full garbage collection.
 */

/** A window that shows about 18 message rows in the list. */
const VIEWPORT = { width: 1280, height: 1480 };
const MB = 1024 * 1024;
/** A run of the heap figure scrolls for at most this long (a list that cannot keep up would take minutes). */
const HEAP_SCROLL_LIMIT_S = 30;
/** The heap runs flick harder than the wheel figure: they are about what the list keeps, not how it follows. */
const HEAP_WHEEL_DELTA = 600;

/** Opens the chat from scratch (a page load), at its latest message. */
export async function openChat(page: Page, base: string, conversationId: number): Promise<void> {
  await page.goto(`${base}/inbox/${conversationId}`);
  await page.locator('[role="log"] [data-message-id]').first().waitFor({ timeout: 30_000 });
  await settled(page);
}

/** Rows in the list's DOM, and how many of them are inside its box. */
const rowCounts = (page: Page) =>
  page.evaluate(() => {
    const box = document.querySelector('[role="log"]');
    if (!box) return { mounted: 0, visible: 0 };
    const view = box.getBoundingClientRect();
    const rows = [...box.querySelectorAll('[data-message-id]')];
    const visible = rows.filter((r) => {
      const b = r.getBoundingClientRect();
      return b.top >= view.top - 1 && b.bottom <= view.bottom + 1;
    }).length;
    return { mounted: rows.length, visible };
  });

export interface Setup {
  s: TestServer;
  conversationId: number;
  reader: { phone: string; id: number };
  /** Another member's token, who sends the incoming messages. */
  sender: string;
}

/** A reader and another member in a group of `messages` generated messages. */
export async function setUp(s: TestServer, messages: number): Promise<Setup> {
  const reader = await signUp(s.url, 'Reader');
  const group = await generateBigGroup(s.server.ctx.db, reader.id, messages, Date.now());
  const other = await s.server.ctx.db.get<{ phone_nr: string }>(
    sql`SELECT u.phone_nr FROM conversation_members m JOIN users u ON u.id = m.user_id
        WHERE m.conversation_id = ${group.conversationId} AND m.user_id != ${reader.id} LIMIT 1`,
  );
  if (!other) throw new Error('the generated group has no other member');
  // After minutes of generating (a 1,000,000-message group) the client's kept-alive socket may be one the server
  // has closed: the first call then fails before it reached the server, and is tried again.
  const once = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: other.phone_nr } }).catch((error: unknown) => error);
  if (once instanceof TypeError) await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: other.phone_nr } });
  else if (once instanceof Error) throw once;
  const { token } = (
    await call<{ token: string }>(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: other.phone_nr, pin: TEST_PIN } })
  ).data;
  return { s, conversationId: group.conversationId, reader, sender: token };
}

async function readerTab(context: BrowserContext, setup: Setup): Promise<Page> {
  const page = await context.newPage();
  await page.goto(setup.s.url);
  await page.waitForFunction(() => 'engine' in window);
  await signInAs(page, setup.reader.phone);
  return page;
}

/** One run: messages arrive one by one in the open chat; row renders per message and the rows mounted. */
async function renderRun(
  page: Page,
  setup: Setup,
  messages: number,
  run: number,
): Promise<{ perMessage: number; atArrival: number; mounted: number; visible: number }> {
  await settled(page);
  const counts = await rowCounts(page);
  const renders = () => page.evaluate(() => (window as unknown as { __rowRenders: number }).__rowRenders);
  await page.evaluate(() => {
    (window as unknown as { __rowRenders: number }).__rowRenders = 0;
  });
  let atArrival = 0;
  for (let i = 0; i < messages; i++) {
    const text = `incoming ${run}.${i}`;
    const before = await renders();
    await call(setup.s.url, 'POST', `/v2/conversations/${setup.conversationId}/messages`, {
      token: setup.sender,
      json: { message: text, client_id: 1 + ((run * 100 + i) % 9999) },
    });
    await page.locator('[role="log"] [data-message-id]', { hasText: text }).waitFor({ timeout: 20_000 });
    atArrival += (await renders()) - before;
    // What follows the message (the read mark after the read delay, the receipt) belongs to it too.
    await sleep(900);
  }
  return { perMessage: (await renders()) / messages, atArrival: atArrival / messages, mounted: counts.mounted, visible: counts.visible };
}

/** One flick in the app, and the same flick on the static page; distances in px. */
export async function wheelRun(page: Page, setup: Setup, sizes: Sizes, staticPage: Page): Promise<{ app: number; still: number; topShare: number }> {
  // A page behind another gets no frames, and a wheel event waits for one: each page is in front for its flick.
  await page.bringToFront();
  await openChat(page, setup.s.url, setup.conversationId);
  const { x, y, box } = await listCentre(page);
  await page.mouse.move(x, y);
  await startScrollTrack(page);
  await flickUp(page, sizes.wheelEvents, sizes.wheelDelta);
  await sleep(1_000);
  const app = await readScrollTrack(page);

  await staticPage.bringToFront();
  await showStaticList(staticPage, box);
  await staticPage.mouse.move(x, y);
  await startScrollTrack(staticPage);
  await flickUp(staticPage, sizes.wheelEvents, sizes.wheelDelta);
  await sleep(1_000);
  const still = await readScrollTrack(staticPage);
  return { app: app.distance, still: still.distance, topShare: app.frames ? app.topFrames / app.frames : 0 };
}

/** The heap of this app's tab and engine worker, after garbage collection. */
async function heap(targets: BrowserTargets, origin: string): Promise<{ total: number; byType: Record<string, number> }> {
  const { total, byType } = await targets.appHeap(origin);
  return { total, byType };
}

/** One run: heap before, scroll up `messages` messages with fast flicks (for at most `limitS` s), heap after. */
export async function heapRun(
  page: Page,
  setup: Setup,
  targets: BrowserTargets,
  messages: number,
  limitS = HEAP_SCROLL_LIMIT_S,
): Promise<{ before: number; after: number; scrolled: number; seconds: number; byType: Record<string, number> }> {
  await openChat(page, setup.s.url, setup.conversationId);
  const before = await heap(targets, setup.s.url);
  const { x, y } = await listCentre(page);
  await page.mouse.move(x, y);
  await startScrollTrack(page);
  const startId = await page.evaluate(() => {
    const ids = [...document.querySelectorAll('[role="log"] [data-message-id]')].map((e) => Number(e.getAttribute('data-message-id')));
    return Math.max(...ids);
  });
  const t0 = Date.now();
  // The generated history's ids are consecutive: the distance in messages is the distance in ids.
  let scrolled = 0;
  while (scrolled < messages && Date.now() - t0 < limitS * 1000) {
    await flickUp(page, 10, HEAP_WHEEL_DELTA);
    scrolled = startId - (await readScrollTrack(page)).minId;
  }
  const seconds = (Date.now() - t0) / 1000;
  await sleep(1_000);
  const after = await heap(targets, setup.s.url);
  return { before: before.total, after: after.total, scrolled, seconds, byType: after.byType };
}

/** The app with the reader signed in to a group of `messages`, in a window showing about 18 rows, for the length of `run`. */
export async function withReader<T>(
  messages: number,
  clientDir: string,
  run: (page: Page, setup: Setup, targets: BrowserTargets, context: BrowserContext) => Promise<T>,
): Promise<T> {
  return withApp(clientDir, async ({ s, browser }) => {
    const setup = await setUp(s, messages);
    const context = await newProfile(browser, { viewport: VIEWPORT });
    await context.addInitScript(() => {
      const w = window as unknown as { __rowRenders: number; benchRowRender: () => void };
      w.__rowRenders = 0;
      w.benchRowRender = () => {
        w.__rowRenders += 1;
      };
    });
    const targets = await BrowserTargets.open(browser);
    try {
      const page = await readerTab(context, setup);
      await openChat(page, s.url, setup.conversationId);
      return await run(page, setup, targets, context);
    } finally {
      await targets.close();
      await context.close();
    }
  });
}

export function rendersBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  return withReader(sizes.bigGroup, clientDir, async (page, setup) => {
    const renders = await repeat(sizes.runs, (run) => renderRun(page, setup, sizes.renderMessages, run));
    if (renders.every((r) => r.perMessage === 0)) {
      throw new Error('no row render was counted: is this a bench build (VITE_BENCH=1) with the counter in MessageRow?');
    }
    const visible = median(renders.map((r) => r.visible));
    log(`renders: ${visible} rows fully on screen, ${median(renders.map((r) => r.mounted))} mounted`);
    return [
      figure({
        benchmark: 'renders',
        name: `message-row renders per incoming message, ~${visible} rows on screen`,
        unit: '',
        runs: renders.map((r) => r.perMessage),
        baseline: { name: 'the message rows mounted (every row rendering again)', runs: renders.map((r) => r.mounted) },
        target: { of: 'value', op: '<=', bound: 2 },
        note: `${sizes.renderMessages} messages a run from another member over REST, each followed by what it causes (read mark, receipt) for 0.9 s; ${formatNumber(
          median(renders.map((r) => r.atArrival)),
        )} of them by the time the new row showed`,
      }),
    ];
  });
}

export function wheelBench(sizes: Sizes, clientDir: string): Promise<Figure[]> {
  return withReader(sizes.bigGroup, clientDir, async (page, setup, _targets, context) => {
    const staticPage = await context.newPage();
    const wheels = await repeat(sizes.runs, () => wheelRun(page, setup, sizes, staticPage));
    const topShare = Math.round(100 * median(wheels.map((w) => w.topShare)));
    return [
      figure({
        benchmark: 'wheel',
        name: `wheel distance up a ${sizes.bigGroup}-message group vs a static page`,
        unit: 'px',
        runs: wheels.map((w) => w.app),
        baseline: { name: 'the same wheel input on a static page of plain rows', runs: wheels.map((w) => w.still) },
        target: { of: 'ratio', op: '>=', bound: 0.9 },
        note: `${sizes.wheelEvents} wheel events of ${sizes.wheelDelta} px, one per frame, from the latest message; the list sat at its top edge in ${topShare} % of frames`,
      }),
    ];
  });
}

export function heapBench(sizes: Sizes, clientDir: string): Promise<Figure[]> {
  return withReader(sizes.bigGroup, clientDir, async (page, setup, targets) => {
    const heaps = await repeat(sizes.runs, () => heapRun(page, setup, targets, sizes.heapScrollMessages));
    const last = heaps[heaps.length - 1];
    const split = last ? Object.entries(last.byType).map(([type, bytes]) => `${type} ${(bytes / MB).toFixed(1)} MB`).join(', ') : '';
    return [
      figure({
        benchmark: 'heap',
        name: `JS heap after scrolling up ${sizes.heapScrollMessages} messages (tab + engine)`,
        unit: 'MB',
        runs: heaps.map((h) => h.after / MB),
        baseline: { name: 'the heap before, with the chat open at its latest message', runs: heaps.map((h) => h.before / MB) },
        target: { of: 'ratio', op: '<=', bound: 1.5 },
        note: `after a full GC; fast wheel flicks went up ${heaps.map((h) => h.scrolled).join(', ')} messages in ${heaps
          .map((h) => h.seconds.toFixed(1))
          .join(', ')} s (at most ${HEAP_SCROLL_LIMIT_S} s a run); after: ${split}`,
      }),
    ];
  });
}
