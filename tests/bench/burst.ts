import type { Browser, Page } from 'playwright';
import { requireMembership } from '../../server/domain/access';
import { sendMessage } from '../../server/domain/messages';
import { signUp, type TestServer, type TestUser } from '../support/server';
import { createChat, signInAs } from '../support/tabs';
import { newProfile, sleep, until, withApp } from './app';
import { BrowserTargets } from './cdp';
import { type Figure, figure, repeat } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 11: `burstMessages` messages arrive within `burstMs` in the chat open in a tab (the production
 * build in Chromium). The server in this process sends them through its own send path (the domain call
 * behind POST /v2/conversations/{id}/messages, without HTTP, which could not make 1,000 calls a second here)
 * in ten even slices, each committed at once (the frames of a slice leave together). Measured: the IndexedDB transactions the engine worker opens (counted by patching
 * `IDBDatabase.prototype.transaction` there over the DevTools protocol; baseline: one per message), the time
 * from the first send until the last message is both stored in IndexedDB and shown in the chat (baseline:
 * the burst's own length), and the longest main-thread task in the tab (Long Tasks API; baseline: the same
 * while a single message arrives).
 */

const COUNT_TRANSACTIONS = `(() => {
  const g = globalThis;
  if (!g.__idbCount) {
    g.__idbCount = { all: 0, readwrite: 0 };
    const open = IDBDatabase.prototype.transaction;
    g.__idbTransaction = open;
    IDBDatabase.prototype.transaction = function (stores, mode, ...rest) {
      g.__idbCount.all += 1;
      if (mode === 'readwrite') g.__idbCount.readwrite += 1;
      return open.call(this, stores, mode, ...rest);
    };
  }
  g.__idbCount.all = 0;
  g.__idbCount.readwrite = 0;
  return true;
})()`;

const READ_TRANSACTIONS = 'globalThis.__idbCount.all';
const READ_WRITES = 'globalThis.__idbCount.readwrite';

/** Whether the engine's database holds the message with this id (a connection and transactions of the benchmark's own, not counted). */
const storedIn = (id: number) => `(async () => {
  const g = globalThis;
  g.__benchDb ??= await new Promise((resolve, reject) => {
    const open = indexedDB.open('messenger-engine');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  return await new Promise((resolve) => {
    // The uncounted transaction: the benchmark's own reads are not the engine's.
    const tx = (g.__idbTransaction ?? IDBDatabase.prototype.transaction).call(g.__benchDb, 'messages', 'readonly');
    const request = tx.objectStore('messages').getKey(${JSON.stringify(String(id))});
    request.onsuccess = () => resolve(request.result !== undefined);
    request.onerror = () => resolve(false);
  });
})()`;

/** Starts collecting the tab's long tasks (over 50 ms) from now. */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[]; __longObserver?: PerformanceObserver };
    w.__longObserver?.disconnect();
    w.__longTasks = [];
    w.__longObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    });
    w.__longObserver.observe({ type: 'longtask' });
  });

/**
 * The tab's threads as a trace sees them (the `toplevel` category: every task with its wall and thread time),
 * so the longest task's own CPU time can be told from the time its thread waited for a core: on two cores
 * the server of this process, the engine worker and the tab share them while a burst arrives.
 */
async function startTrace(page: Page): Promise<() => Promise<{ wallMs: number; cpuMs: number }>> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e) => {
    events.push(...(e.value as unknown as TraceEvent[]));
  });
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: ['toplevel'] }, transferMode: 'ReportEvents' });
  return async () => {
    const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    await cdp.detach();
    return longestTraced(events);
  };
}

interface TraceEvent {
  ph: string;
  name: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** A task of a thread, as the `toplevel` category names it (`RunTask` with the timeline categories). */
const TASK_EVENTS = new Set(['ThreadControllerImpl::RunTask', 'RunTask']);

/** The longest task of a renderer's main thread in the trace: its wall time and its thread's CPU time. */
function longestTraced(events: readonly TraceEvent[]): { wallMs: number; cpuMs: number } {
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  let longest = { wallMs: 0, cpuMs: 0 };
  for (const e of events) {
    if (e.ph !== 'X' || !TASK_EVENTS.has(e.name) || !mains.has(`${e.pid}:${e.tid}`)) continue;
    const wallMs = (e.dur ?? 0) / 1000;
    if (wallMs > longest.wallMs) longest = { wallMs, cpuMs: (e.tdur ?? 0) / 1000 };
  }
  return longest;
}

const longestTask = (page: Page) =>
  page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks));

/** When the text first shows in the chat's message list (ms since the epoch), noted in the tab. */
const watchFor = (page: Page, text: string) =>
  page.evaluate((wanted) => {
    const w = window as unknown as { __shownAt: number | null; __shownObserver?: MutationObserver };
    w.__shownObserver?.disconnect();
    w.__shownAt = null;
    const check = () => {
      const log = document.querySelector('[role="log"]');
      if (w.__shownAt === null && log?.textContent?.includes(wanted)) {
        w.__shownAt = Date.now();
        w.__shownObserver?.disconnect();
      }
    };
    w.__shownObserver = new MutationObserver(check);
    w.__shownObserver.observe(document.body, { childList: true, subtree: true, characterData: true });
    check();
  }, text);

interface Arrival {
  /** ms from the first send until the last message was stored and shown. */
  doneMs: number;
  /** ms the server took to send them all. */
  sendMs: number;
  transactions: number;
  /** Of them, readwrite. */
  writes: number;
  longestMs: number;
  /** With `trace`: the longest task of the tab's thread in a trace of the same time, wall and CPU ms. */
  traced: { wallMs: number; cpuMs: number } | null;
}

async function arrive(
  env: { s: TestServer; page: Page; targets: BrowserTargets; worker: string },
  chat: { conversationId: number; sender: TestUser },
  count: number,
  withinMs: number,
  label: string,
  trace = false,
): Promise<Arrival> {
  const { s, page, targets, worker } = env;
  const { conversation, member } = await requireMembership(s.server.ctx.db, String(chat.conversationId), chat.sender.id);
  const lastText = `${label} ${count - 1} end`;
  await watchFor(page, lastText);
  await watchLongTasks(page);
  // The engine is at rest first (a reloaded tab's engine reads and syncs for a while): no transaction for 1 s.
  await targets.evaluate(worker, COUNT_TRANSACTIONS);
  let previous = -1;
  await until('the engine to be at rest', async () => {
    const now = await targets.evaluate<number>(worker, READ_TRANSACTIONS);
    const rest = now === previous;
    previous = now;
    return rest ? true : undefined;
  }, 20_000, 1_000);
  await targets.evaluate(worker, COUNT_TRANSACTIONS);
  const stopTrace = trace ? await startTrace(page) : null;
  const slices = Math.min(10, count);
  const t0 = Date.now();
  let lastId = 0;
  for (let slice = 0; slice < slices; slice++) {
    const due = t0 + (slice * withinMs) / slices;
    if (due > Date.now()) await sleep(due - Date.now());
    const from = Math.floor((slice * count) / slices);
    const to = Math.floor(((slice + 1) * count) / slices);
    // One commit per slice: a hundred sends one by one take the server about two seconds here.
    await s.server.ctx.events.transaction(async () => {
      for (let i = from; i < to; i++) {
        const text = i === count - 1 ? lastText : `${label} ${i}`;
        const input = { conversation, member, clientId: null, text, attachment: null, quotedId: null, idempotencyKey: null };
        lastId = (await sendMessage(s.server.ctx, input)).message.id;
      }
    });
  }
  const sendMs = Date.now() - t0;
  const storedAt = await until('the burst to be stored', async () => ((await targets.evaluate<boolean>(worker, storedIn(lastId))) ? Date.now() : undefined), 60_000, 25);
  const shownAt = await until('the burst to show', () => page.evaluate(() => (window as unknown as { __shownAt: number | null }).__shownAt ?? undefined), 60_000, 25);
  // What the burst still causes (read marks, receipts) belongs to it.
  await sleep(1_000);
  const traced = stopTrace ? await stopTrace() : null;
  return {
    doneMs: Math.max(storedAt, shownAt) - t0,
    sendMs: Math.max(1, sendMs),
    transactions: await targets.evaluate<number>(worker, READ_TRANSACTIONS),
    writes: await targets.evaluate<number>(worker, READ_WRITES),
    longestMs: await longestTask(page),
    traced,
  };
}

/**
 * One run in a fresh profile, with a new reader and a new chat: what one burst leaves behind (the delivered
 * receipts of a thousand messages go out for a while after it) does not run into the next.
 */
async function burstRun(
  s: TestServer,
  browser: Browser,
  targets: BrowserTargets,
  sizes: Sizes,
  run: number,
): Promise<{ single: Arrival; burst: Arrival; traced: Arrival }> {
  const sender = await signUp(s.url, 'Burst sender');
  const reader = await signUp(s.url, 'Burst reader');
  const context = await newProfile(browser);
  try {
    const page = await context.newPage();
    await page.goto(s.url);
    await page.waitForFunction(() => 'engine' in window);
    await signInAs(page, reader.phone);
    const conversationId = await createChat(page, 'Burst sender', sender.phone);
    await page.goto(`${s.url}/inbox/${conversationId}`);
    await page.locator('[role="log"]').waitFor({ timeout: 30_000 });
    const worker = (await targets.list(s.url)).find((t) => t.type === 'shared_worker' || t.type === 'worker');
    if (!worker) throw new Error('no engine worker to count transactions in');
    const env = { s, page, targets, worker: worker.targetId };
    const chat = { conversationId, sender };
    const single = await arrive(env, chat, 1, 0, `single ${run}`);
    const burst = await arrive(env, chat, sizes.burstMessages, sizes.burstMs, `burst ${run}`);
    // Traced apart: a trace slows the tab and the worker, and would move the figures above.
    const traced = await arrive(env, chat, sizes.burstMessages, sizes.burstMs, `traced ${run}`, true);
    return { single, burst, traced };
  } finally {
    await targets.detachAll();
    await context.close();
  }
}

export async function burstBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  return withApp(clientDir, async ({ s, browser }) => {
    const targets = await BrowserTargets.open(browser);
    try {
      const runs = await repeat(sizes.runs, (run) => burstRun(s, browser, targets, sizes, run));
      log(`burst: sent in ${runs.map((r) => r.burst.sendMs).join(', ')} ms`);
      const n = sizes.burstMessages;
      return [
        figure({
          benchmark: 'burst',
          name: `IndexedDB transactions for ${n} messages in ${sizes.burstMs / 1000} s`,
          unit: '',
          runs: runs.map((r) => r.burst.transactions),
          baseline: { name: 'one transaction per message', runs: runs.map(() => n) },
          target: { of: 'value', op: '<=', bound: 20 },
          note: `every transaction the engine worker opened from the first send until the burst was stored and shown, and 1 s after (readwrite: ${runs
            .map((r) => r.burst.writes)
            .join(', ')}); a single message used ${runs.map((r) => r.single.transactions).join(', ')}`,
        }),
        figure({
          benchmark: 'burst',
          name: `${n} messages: first send to all stored and shown`,
          unit: 'ms',
          runs: runs.map((r) => r.burst.doneMs),
          baseline: { name: 'the time the server took to send them', runs: runs.map((r) => r.burst.sendMs) },
          note: `one message took ${runs.map((r) => r.single.doneMs).join(', ')} ms`,
        }),
        figure({
          benchmark: 'burst',
          name: `longest main-thread task in the tab during ${n} messages`,
          unit: 'ms',
          runs: runs.map((r) => r.burst.longestMs),
          baseline: { name: 'the same while one message arrives', runs: runs.map((r) => r.single.longestMs) },
          target: { of: 'value', op: '<=', bound: 50 },
          note: 'Long Tasks API; 0: no task over 50 ms',
        }),
        figure({
          benchmark: 'burst',
          name: `CPU time of the tab's longest task during ${n} messages`,
          unit: 'ms',
          runs: runs.map((r) => r.traced.traced?.cpuMs ?? 0),
          baseline: { name: 'its wall time', runs: runs.map((r) => r.traced.traced?.wallMs ?? 0) },
          note: "for reading: a second burst in the same chat, traced (toplevel category): the longest task of the tab's main thread, its thread's CPU time against its length; the rest of it the thread waited for a core",
        }),
      ];
    } finally {
      await targets.close();
    }
  });
}
