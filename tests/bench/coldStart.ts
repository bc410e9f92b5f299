import type { Browser, BrowserContext } from 'playwright';
import { generateConversations } from '../../server/seed/history';
import { signUp } from '../support/server';
import { type TcpProxy, tcpProxy } from '../support/tcpProxy';
import { signInAs } from '../support/tabs';
import { newProfile, sleep, until, withApp } from './app';
import { BrowserTargets } from './cdp';
import { type Figure, figure, formatNumber, median, repeat } from './harness';
import type { Sizes } from './sizes';

/**
 * Issue 11: a cold start of a signed-in user with `coldStartChats` chats, in the production build. Each
 * visit opens a new tab on `/inbox` after the last tab and its engine worker are gone (so the engine starts
 * from IndexedDB, not from a worker that outlived a reload), and times navigation start to the first
 * chats-list row painted, and to the engine's socket being online. Figure: with the IndexedDB cache the
 * previous visit left; baseline: the same with every store but the session cleared (signed in, nothing cached).
 * Issue 13: the same warm visit with the server down (the proxy in front of it refusing connections: the page
 * comes from the service worker's precache), against the warm visit with the server up: ≤1.2×.
 */

interface Visit {
  /** ms from navigation start to the frame after the first chats-list row entered the DOM. */
  rowMs: number;
  /** ms from navigation start until the tab heard that the engine's socket is online. */
  onlineMs: number;
  /** ms from navigation start until the app made its engine connection, and until the session answered. */
  engineMs: number;
  sessionMs: number;
}

/** Installed in every tab: notes when the first chats-list row paints and when the socket is first online. */
function installMarks(): void {
  const marks: { row: number | null; online: number | null; engine: number | null; session: number | null } = {
    row: null,
    online: null,
    engine: null,
    session: null,
  };
  Object.assign(window, { __cold: marks });
  const observer = new MutationObserver(() => {
    if (!document.querySelector('[data-conversation-id]')) return;
    observer.disconnect();
    requestAnimationFrame(() => {
      marks.row = performance.now();
    });
  });
  observer.observe(document, { childList: true, subtree: true });
  // The app sets `window.engine` as it starts: listen to its connection from that moment.
  type Subscribable = { subscribe(next: (value: unknown) => void): unknown };
  let engine: { connection(): Subscribable; session(): Subscribable } | undefined;
  Object.defineProperty(window, 'engine', {
    configurable: true,
    get: () => engine,
    set: (value: typeof engine) => {
      engine = value;
      marks.engine = performance.now();
      value?.connection().subscribe((state) => {
        if (state === 'online' && marks.online === null) marks.online = performance.now();
      });
      value?.session().subscribe(() => {
        marks.session ??= performance.now();
      });
    },
  });
}

/** Waits until no engine worker of the app runs any more (its last tab closed). */
async function workersGone(targets: BrowserTargets, origin: string): Promise<void> {
  await until('the engine worker to end', async () => ((await targets.list(origin)).some((t) => t.type !== 'page') ? undefined : true), 20_000, 50);
}

/** One visit; `offline`: the server is down, so only the row is waited for (the socket never comes online). */
async function visit(context: BrowserContext, targets: BrowserTargets, base: string, offline = false): Promise<Visit> {
  const page = await context.newPage();
  await page.goto(`${base}/inbox`);
  const marks = await until(offline ? 'the chats list, offline' : 'the chats list and the socket', () =>
    page.evaluate((offline) => {
      const m = (window as unknown as { __cold: { row: number | null; online: number | null; engine: number | null; session: number | null } }).__cold;
      return m.row !== null && (offline || m.online !== null)
        ? { rowMs: m.row, onlineMs: m.online ?? Number.NaN, engineMs: m.engine ?? Number.NaN, sessionMs: m.session ?? Number.NaN }
        : undefined;
    }, offline),
  );
  // The engine finishes loading the list and storing it: the next warm visit reads all of it.
  await sleep(1_500);
  await page.close();
  await workersGone(targets, base);
  return marks;
}

/** Empties every store of the engine's database but the session, from a page of the origin without the app. */
async function clearAllButSession(context: BrowserContext, base: string): Promise<void> {
  const page = await context.newPage();
  // An API path answers JSON: a page of the origin where no app (and no engine) starts.
  await page.goto(`${base}/v2/bench-blank`);
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('messenger-engine');
        open.onerror = () => reject(new Error('could not open the engine database'));
        open.onsuccess = () => {
          const db = open.result;
          const stores = [...db.objectStoreNames].filter((n) => n !== 'session');
          const tx = db.transaction(stores, 'readwrite');
          for (const name of stores) tx.objectStore(name).clear();
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(new Error('could not clear the engine database'));
        };
      }),
  );
  await page.close();
}

interface Phase {
  warm: Visit;
  offline: Visit;
  cleared: Visit;
}

/**
 * Signs the user in through `proxy` (an origin of its own: its own IndexedDB and service worker), waits for
 * the service worker to have precached the build, then the runs: warm, warm with the server down, cleared.
 */
async function phase(browser: Browser, proxy: TcpProxy, phone: string, runs: number): Promise<Phase[]> {
  const base = proxy.url;
  const context = await newProfile(browser);
  await context.addInitScript(installMarks);
  const targets = await BrowserTargets.open(browser);
  try {
    const first = await context.newPage();
    await first.goto(base);
    await first.waitForFunction(() => 'engine' in window && window.engine !== undefined);
    await signInAs(first, phone);
    await first.goto(`${base}/inbox`);
    await first.locator('[data-conversation-id]').first().waitFor({ timeout: 30_000 });
    // An active service worker has precached the whole build (its install waits for that).
    await first.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await sleep(1_500);
    await first.close();
    await workersGone(targets, base);
    return await repeat(runs, async () => {
      const warm = await visit(context, targets, base);
      await proxy.stop();
      const offline = await visit(context, targets, base, true).finally(() => proxy.start());
      await clearAllButSession(context, base);
      const cleared = await visit(context, targets, base);
      return { warm, offline, cleared };
    });
  } finally {
    await targets.close();
    await context.close();
  }
}

function figures(runs: Phase[], where: string, chats: number, targets: boolean): Figure[] {
  const ms = (n: number) => formatNumber(n);
  return [
    figure({
      benchmark: 'cold-start',
      name: `new tab to the first chats-list row, warm IndexedDB cache (${chats} chats), ${where}`,
      unit: 'ms',
      runs: runs.map((r) => r.warm.rowMs),
      baseline: { name: 'the same with every store but the session cleared', runs: runs.map((r) => r.cleared.rowMs) },
      ...(targets ? { target: { of: 'ratio' as const, op: '<=' as const, bound: 0.5 } } : {}),
      note: `navigation start to the frame after the row entered the DOM, the engine worker started afresh; the app connected to its engine at ${ms(
        median(runs.map((r) => r.warm.engineMs)),
      )} ms, the session answered at ${ms(median(runs.map((r) => r.warm.sessionMs)))} ms warm and ${ms(median(runs.map((r) => r.cleared.sessionMs)))} ms cleared`,
    }),
    figure({
      benchmark: 'cold-start',
      name: `cached list painted before the socket was online, by, ${where}`,
      unit: 'ms',
      runs: runs.map((r) => r.warm.onlineMs - r.warm.rowMs),
      baseline: { name: 'the same with the storage cleared (negative: the socket came first)', runs: runs.map((r) => r.cleared.onlineMs - r.cleared.rowMs) },
      ...(targets ? { target: { of: 'value' as const, op: '>=' as const, bound: 0 } } : {}),
      note: `the socket was online ${ms(median(runs.map((r) => r.warm.onlineMs)))} ms after navigation start (warm)`,
    }),
    figure({
      benchmark: 'cold-start',
      name: `new tab to the first chats-list row with the server down, warm cache, ${where}`,
      unit: 'ms',
      runs: runs.map((r) => r.offline.rowMs),
      baseline: { name: 'the same with the server up', runs: runs.map((r) => r.warm.rowMs) },
      ...(targets ? { target: { of: 'ratio' as const, op: '<=' as const, bound: 1.2 } } : {}),
      note: 'the server refusing connections: the page and the app from the service worker, the list from IndexedDB',
    }),
  ];
}

/**
 * Measured twice: on loopback, where the server answers in a millisecond, and through a proxy that gives the
 * link a round trip of BENCH_RTT_MS (100 ms), as a user's server is never on loopback. The targets hold on
 * the second: on loopback the list call and the socket cost next to nothing, so what a cache saves there is
 * small beside the app's own start, which both paths share.
 */
export async function coldStartBench(sizes: Sizes, clientDir: string, log: (line: string) => void): Promise<Figure[]> {
  return withApp(clientDir, async ({ s, browser }) => {
    const user = await signUp(s.url, 'Cold start');
    await generateConversations(s.server.ctx.db, user.id, sizes.coldStartChats, Date.now());
    const port = Number(new URL(s.url).port);
    // The loopback phase goes through a proxy too, without delay: it is how the server goes down and back.
    const direct = await tcpProxy(port);
    const proxy = await tcpProxy(port, { oneWayMs: sizes.rttMs / 2 });
    try {
      const loopback = await phase(browser, direct, user.phone, sizes.runs);
      const remote = await phase(browser, proxy, user.phone, sizes.runs);
      const rows = (runs: Phase[]) =>
        (['warm', 'offline', 'cleared'] as const).map((k) => `${k} ${runs.map((r) => Math.round(r[k].rowMs)).join(', ')} ms`).join(', ');
      log(`cold-start: loopback ${rows(loopback)}; ${sizes.rttMs} ms round trip ${rows(remote)}`);
      return [
        ...figures(remote, `${sizes.rttMs} ms round trip`, sizes.coldStartChats, true),
        ...figures(loopback, 'loopback', sizes.coldStartChats, false),
      ];
    } finally {
      await proxy.close();
      await direct.close();
    }
  });
}
