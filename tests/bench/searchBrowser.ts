import type { Browser, Page } from 'playwright';
import { signUp, type TestServer } from '../support/server';
import { closeEngineWorkers, createChat, signInAs } from '../support/tabs';
import { newProfile, until, withApp } from './app';
import { BrowserTargets } from './cdp';
import { eachMessage, queries } from './corpus';
import { type Figure, figure, type FigureInput, formatNumber } from './harness';
import { longestTaskWhileTyping } from './typingProbe';
import type { Sizes } from './sizes';

/**
 * Issue 24's search targets where they hold: the engine's own index in its SharedWorker, on Chromium's
 * IndexedDB, in the production build. The search store is given `count` generated messages as an older build
 * kept them (the corpus the Node figures use), a new engine indexes them once, and a third engine (the index
 * opened as kept, no rebuild) is asked 20 two-word queries (the last word a 3-letter prefix) and 20 of two of
 * the 20 most common words, each for its first 50 hits, timed in the tab from the call to the answer (what the
 * UI waits for: the worker's query, its reads of the hits' documents, snippets and the hop back). Building
 * 1,000,000 takes minutes, so each size is built once and a run is one round of the queries.
 */

const SEED_CHUNK = 10_000;
const MB = 1024 * 1024;

/** Every this many generated messages, one is the quiet chat's (a chat's own search among a busy one's). */
const QUIET_EVERY = 1000;

/**
 * Puts `count` generated messages of the chat in the engine's search store as a build before issue 24's index
 * kept them (not indexed, the build's mark gone): the next engine indexes them once. With `quiet`, one message
 * in QUIET_EVERY is that chat's instead.
 */
export async function seedSearchStore(page: Page, conversationId: number, count: number, quiet?: number): Promise<void> {
  const all = eachMessage(count);
  for (let done = 0; done < count; ) {
    const chunk = [];
    for (let i = 0; i < SEED_CHUNK && done < count; i++, done++) {
      const doc = all.next().value;
      const chat = quiet !== undefined && done % QUIET_EVERY === QUIET_EVERY - 1 ? quiet : conversationId;
      if (doc) chunk.push({ ...doc, conversationId: chat, group: `chat:${chat}` });
    }
    await page.evaluate(
      (docs) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open('messenger-engine');
          open.onerror = () => reject(open.error ?? new Error('no database'));
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(['search', 'meta'], 'readwrite');
            for (const doc of docs) tx.objectStore('search').put(doc, doc.key);
            tx.objectStore('meta').delete('searchPostingsBuilt');
            tx.oncomplete = () => {
              db.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error ?? new Error('seeding failed'));
          };
        }),
      chunk,
    );
  }
}

/** Milliseconds from asking the engine to its first answer, and how many hits it had. */
const timedQuery = (page: Page, query: string, conversationId?: number) =>
  page.evaluate(
    ({ q, chat }) =>
      new Promise<{ ms: number; hits: number; complete: boolean }>((resolve, reject) => {
        const t0 = performance.now();
        const sub = window.engine.searchMessages(q, { limit: 50, ...(chat === undefined ? {} : { conversationId: chat }) }).subscribe({
          next: (view) => {
            resolve({ ms: performance.now() - t0, hits: view.hits.length, complete: view.complete });
            setTimeout(() => sub.unsubscribe());
          },
          error: reject,
        });
      }),
    { q: query, chat: conversationId },
  );

const ms = (values: number[]) => `${values.map((v) => v.toFixed(0)).join(', ')} ms`;

const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
};

interface SizeRuns {
  two: number[];
  common: number[];
  /** A chat's own search, two common words, in the chat of one message in QUIET_EVERY. */
  quiet: number[];
  /** The longest main-thread task while a two-word query is typed into the chats-list search box. */
  typing: number[];
  buildMs: number;
  /** The p95 of the queries asked while the build ran. */
  duringBuildMs: number;
  firstAnswerMs: number;
  workerHeapMb: number;
  hits: number;
}

/** Opens the app on a fresh engine (the previous one closed), with the search box's chats list. */
async function freshEngine(browser: Browser, page: Page, url: string): Promise<Page> {
  const context = page.context();
  await page.close();
  await closeEngineWorkers(browser);
  const next = await context.newPage();
  await next.goto(`${url}/inbox`);
  await next.waitForFunction(() => 'engine' in window);
  return next;
}

async function sizeRuns(s: TestServer, browser: Browser, count: number, rounds: number, log: (line: string) => void): Promise<SizeRuns> {
  const friend = await signUp(s.url, 'Search friend');
  const reader = await signUp(s.url, 'Search reader');
  const context = await newProfile(browser);
  const targets = await BrowserTargets.open(browser);
  try {
    let page = await context.newPage();
    await page.goto(s.url);
    await page.waitForFunction(() => 'engine' in window);
    await signInAs(page, reader.phone);
    const conversationId = await createChat(page, 'Search friend', friend.phone);
    const quietFriend = await signUp(s.url, 'Quiet friend');
    const quietId = await createChat(page, 'Quiet friend', quietFriend.phone);
    const t0 = Date.now();
    await seedSearchStore(page, conversationId, count, quietId);
    log(`search-browser: ${formatNumber(count)} documents stored in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    page = await freshEngine(browser, page, s.url);
    const t1 = Date.now();
    // Asked once a second while the build runs: what a reader who searches meanwhile waits for (a query
    // waits for the build's slice in its transaction).
    const during: number[] = [];
    const asked = queries(20);
    await until(
      'the index to be built',
      async () => {
        const answer = await timedQuery(page, asked[during.length % asked.length] as string);
        during.push(answer.ms);
        return answer.complete ? true : undefined;
      },
      3_600_000,
      1000,
    );
    const buildMs = Date.now() - t1;
    const duringBuildMs = p95(during);
    log(`search-browser: ${formatNumber(count)} indexed once in ${(buildMs / 1000).toFixed(0)} s; a query meanwhile: p95 ${duringBuildMs.toFixed(0)} ms, longest ${Math.max(...during).toFixed(0)} ms of ${during.length}`);
    // The index as kept: a new engine opens it (one read) and answers at once. Asked for two common words, so
    // the answer needs the newest block only: what is timed is the engine's start and the index's opening.
    page = await freshEngine(browser, page, s.url);
    const first = await timedQuery(page, queries(1, 0, 20)[0] as string);
    if (!first.complete) throw new Error('the kept index was built again at start');
    const two: number[] = [];
    const common: number[] = [];
    const quiet: number[] = [];
    const typing: number[] = [];
    let hits = 0;
    const ask = async (list: string[], chat?: number) => {
      const times: number[] = [];
      for (const q of list) {
        const answer = await timedQuery(page, q, chat);
        hits += answer.hits;
        times.push(answer.ms);
      }
      return times;
    };
    await ask(queries(20));
    for (let round = 0; round < rounds; round++) {
      two.push(p95(await ask(queries(20))));
      common.push(p95(await ask(queries(20, 0, 20))));
    }
    // A chat's own search after the rounds above, not between them: its reads of whole blocks' common lists
    // would otherwise stand between the two-word rounds.
    for (let round = 0; round < rounds; round++) quiet.push(p95(await ask(queries(20, 0, 20), quietId)));
    // Typing in the UI over the index as kept: a query a round, the box emptied between them.
    const typed = queries(rounds, 50, 2000);
    for (let round = 0; round < rounds; round++) typing.push(await longestTaskWhileTyping(page, typed[round] as string));
    const worker = (await targets.list(s.url)).find((t) => t.type === 'shared_worker');
    const workerHeapMb = worker ? (await targets.heapAfterGc(worker.targetId)) / MB : Number.NaN;
    await targets.detachAll();
    log(
      `search-browser: ${formatNumber(count)}: p95 two words ${ms(two)}; common ${ms(common)}; a quiet chat's own ${ms(quiet)}; longest task typing ${ms(
        typing,
      )}; worker heap ${workerHeapMb.toFixed(1)} MB; ${hits} hits in all`,
    );
    return { two, common, quiet, typing, buildMs, duringBuildMs, firstAnswerMs: first.ms, workerHeapMb, hits };
  } finally {
    await targets.close();
    await context.close();
  }
}

export async function searchBrowserBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  return withApp(clientDir, async ({ s, browser }) => {
    const big = await sizeRuns(s, browser, sizes.searchBrowserMessages, sizes.runs, log);
    const small = await sizeRuns(s, browser, sizes.searchBrowserBaselineMessages, sizes.runs, log);
    const size = formatNumber(sizes.searchBrowserMessages);
    const smallSize = formatNumber(sizes.searchBrowserBaselineMessages);
    // Each figure: the runs of the big index against the baseline's, picked from both sizes the same way.
    const compare = (name: string, unit: string, pick: (r: SizeRuns) => number[], more: Pick<FigureInput, 'target' | 'note'>) =>
      figure({
        benchmark: 'search-browser',
        name,
        unit,
        runs: pick(big),
        baseline: { name: `the same, ${smallSize} messages`, runs: pick(small) },
        ...more,
      });
    const atMost = (bound: number) => ({ of: 'value', op: '<=', bound }) as const;
    const perRun = 'p95 of 20 queries per run';
    return [
      compare(`search in Chromium: p95 of a two-word query's first 50 hits, ${size} messages`, 'ms', (r) => r.two, {
        target: atMost(50),
        note: `the engine in its SharedWorker on Chromium IndexedDB, production build: from window.engine.searchMessages to its answer (hits with snippets); ${perRun}`,
      }),
      compare(`search in Chromium: the same with two of the 20 most common words, ${size} messages`, 'ms', (r) => r.common, {
        target: atMost(50),
      }),
      compare(
        `search in Chromium: a chat's own search, two common words, in a chat of 1 message in ${formatNumber(QUIET_EVERY)}, ${size} messages`,
        'ms',
        (r) => r.quiet,
        {
          note: `for reading (the issue's targets are for the search of every chat): engine.searchMessages(q, { conversationId }), the chat's list intersected in each block (c|<block>|<chat>); ${perRun}`,
        },
      ),
      compare(`longest main-thread task while typing a two-word query into the chats-list search box, ${size} messages`, 'ms', (r) => r.typing, {
        target: atMost(50),
        note: 'Long Tasks API in the tab (0: no task over 50 ms), a key every 80 ms until the Messages section shows, over the index as kept',
      }),
      compare(`search in Chromium: a new engine's first answer from the kept index of ${size} messages`, 'ms', (r) => [r.firstAnswerMs], {
        target: atMost(200),
        note: 'no rebuild at start: the index opens with one read; timed from the first query of a new tab and engine (two common words: the newest block answers)',
      }),
      compare(`search in Chromium: the engine worker's JS heap with the index of ${size} messages open`, 'MB', (r) => [r.workerHeapMb], {
        target: atMost(150),
        note: 'after the queries and a full GC',
      }),
      compare(`search in Chromium: indexing ${size} stored messages once`, 'ms', (r) => [r.buildMs], {
        note: 'for reading: the first start after an older build, in slices (complete: false meanwhile)',
      }),
      compare(`search in Chromium: p95 of a query asked while ${size} stored messages are indexed once`, 'ms', (r) => [r.duringBuildMs], {
        note: 'for reading: a two-word query a second from the start of the build until it is complete (a query waits for the slice being written)',
      }),
    ];
  });
}
