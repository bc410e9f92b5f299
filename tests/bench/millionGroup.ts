import type { Page } from 'playwright';
import { generateBigGroup } from '../../server/seed/history';
import { sleep } from './app';
import { heapRun, wheelRun, withReader } from './chat';
import { burstsThenDrift, staticRun } from './drift';
import { type Figure, figure, formatNumber, median, repeat } from './harness';
import { listCentre, settled } from './pageProbes';
import type { Sizes } from './sizes';
import { NOTCH_PX, NOTCHES, WATCH_MS } from '../support/wheelDrift';

/**
 * Issue 24: "a 1,000,000-message group behaves like a small chat", in the bench build in Chromium against the real
 * server, in a group of `sizes.millionGroup` messages made by the seed's generator (server/seed/history.ts, as
 * `npm run seed -- --group-messages 1000000` makes it). With the chat machinery of chat.ts and drift.ts:
 * - opening it from the chats list, until its list shows message rows, against a `groupOpenBaseline`-message chat
 *   of the same reader opened the same way (≤ 1.5×);
 * - the content distance of a fast wheel flick up from its latest message against a static page (≥ 0.9);
 * - the JS heap of the tab and the engine worker after scrolling up `groupHeapScrollMessages` messages, against
 *   the heap at open (≤ 1.5×);
 * - then, from there (far up), wheel bursts back down, and how far the row read moves once the wheel stops (0 px).
 */

const MB = 1024 * 1024;

/**
 * One open from the chats list (the page loaded at /inbox, the app and its engine started): ms from the click on
 * the chat's row to the first animation frame with a message row in the chat's list, taken in the page.
 */
async function openRun(page: Page, base: string, conversationId: number): Promise<number> {
  await page.goto(`${base}/inbox`);
  await page.locator(`[data-conversation-id="${conversationId}"]`).first().waitFor({ timeout: 30_000 });
  // The list's own start (its first values, the previews) is not the open.
  await sleep(500);
  const ms = await page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const link = document.querySelector<HTMLElement>(`[data-conversation-id="${id}"]`);
        if (!link) return reject(new Error(`no chats-list row for ${id}`));
        const t0 = performance.now();
        link.click();
        const look = () => {
          const row = document.querySelector('[role="log"] [data-message-id]');
          if (row && row.getBoundingClientRect().height > 0) resolve(performance.now() - t0);
          else if (performance.now() - t0 > 30_000) reject(new Error('the chat showed no message row in 30 s'));
          else requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      }),
    conversationId,
  );
  await settled(page, 'opened from the chats list', 60_000);
  return ms;
}

export function groupBench(sizes: Sizes, clientDir: string, log: (line: string) => void = () => undefined): Promise<Figure[]> {
  const size = formatNumber(sizes.millionGroup);
  return withReader(sizes.millionGroup, clientDir, async (page, setup, targets, context) => {
    const small = await generateBigGroup(setup.s.server.ctx.db, setup.reader.id, sizes.groupOpenBaseline, Date.now());
    const figures: Figure[] = [];

    // One open of each first: the chat's code chunk and the first pages from the server are not what is compared.
    await openRun(page, setup.s.url, setup.conversationId);
    await openRun(page, setup.s.url, small.conversationId);
    const opens = await repeat(sizes.runs, async () => ({
      big: await openRun(page, setup.s.url, setup.conversationId),
      small: await openRun(page, setup.s.url, small.conversationId),
    }));
    log(`group: opens ${opens.map((o) => `${Math.round(o.big)}/${Math.round(o.small)}`).join(', ')} ms`);
    figures.push(
      figure({
        benchmark: 'group',
        name: `open the ${size}-message group from the chats list`,
        unit: 'ms',
        runs: opens.map((o) => o.big),
        baseline: { name: `the same, a ${sizes.groupOpenBaseline}-message chat of the same reader`, runs: opens.map((o) => o.small) },
        target: { of: 'ratio', op: '<=', bound: 1.5 },
        note: 'click on the chats-list row to the first frame with a message row in the chat (the page at /inbox, loaded afresh each run); the two alternate',
      }),
    );

    const staticPage = await context.newPage();
    const wheels = await repeat(sizes.runs, () => wheelRun(page, setup, sizes, staticPage));
    figures.push(
      figure({
        benchmark: 'group',
        name: `wheel distance up the ${size}-message group vs a static page`,
        unit: 'px',
        runs: wheels.map((w) => w.app),
        baseline: { name: 'the same wheel input on a static page of plain rows', runs: wheels.map((w) => w.still) },
        target: { of: 'ratio', op: '>=', bound: 0.9 },
        note: `${sizes.wheelEvents} wheel events of ${sizes.wheelDelta} px, one per frame, from the latest message; the list sat at its top edge in ${Math.round(
          100 * median(wheels.map((w) => w.topShare)),
        )} % of frames`,
      }),
    );

    const far = await repeat(sizes.runs, async (run) => {
      await page.bringToFront();
      const heap = await heapRun(page, setup, targets, sizes.groupHeapScrollMessages, sizes.groupScrollSeconds);
      // Far up now: the reader comes back down and stops.
      const down = await burstsThenDrift(page, sizes.driftBursts, 1);
      // What the probe reads where nothing moves by itself: the same bursts down a static page.
      const still = await staticRun(staticPage, (await listCentre(page)).box, sizes.driftBursts, 1);
      log(
        `group: run ${run + 1}: up ${heap.scrolled} messages in ${heap.seconds.toFixed(1)} s, heap ${(heap.before / MB).toFixed(1)} → ${(
          heap.after / MB
        ).toFixed(1)} MB; back down, drift ${down.drift} px (static page ${still} px)`,
      );
      return { heap, down, still };
    });
    const last = far[far.length - 1];
    const split = last ? Object.entries(last.heap.byType).map(([type, bytes]) => `${type} ${(bytes / MB).toFixed(1)} MB`).join(', ') : '';
    figures.push(
      figure({
        benchmark: 'group',
        name: `JS heap after scrolling up ${formatNumber(sizes.groupHeapScrollMessages)} messages of the ${size}-message group (tab + engine)`,
        unit: 'MB',
        runs: far.map((f) => f.heap.after / MB),
        baseline: { name: 'the heap at open, the chat at its latest message', runs: far.map((f) => f.heap.before / MB) },
        target: { of: 'ratio', op: '<=', bound: 1.5 },
        note: `after a full GC; fast wheel flicks went up ${far.map((f) => f.heap.scrolled).join(', ')} messages in ${far
          .map((f) => f.heap.seconds.toFixed(0))
          .join(', ')} s (at most ${sizes.groupScrollSeconds} s a run); after: ${split}`,
      }),
    );
    figures.push(
      figure({
        benchmark: 'group',
        name: `drift of the row read after going far up the ${size}-message group and coming back down`,
        unit: 'px',
        runs: far.map((f) => f.down.drift),
        baseline: { name: 'the same bursts down a static page of plain rows', runs: far.map((f) => f.still) },
        target: { of: 'value', op: '<=', bound: 0 },
        note: `after the heap figure's scroll up, ${sizes.driftBursts} bursts of ${NOTCHES} wheel notches of ${NOTCH_PX} px down; the row in the middle of the list watched for ${
          WATCH_MS / 1000
        } s from when the list stopped scrolling (${formatNumber(median(far.map((f) => f.down.settleMs)))} ms after the last wheel event): its largest move`,
      }),
    );
    return figures;
  });
}
