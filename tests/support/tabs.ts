import { createReadStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { EngineApi, MessageWindowView, OutboxEntry, SessionView } from '../../src/engine/api';
import type { QueryName } from '../../src/worker/names';
import { sql } from '../../server/db/store';
import { launchChromium } from './browser';
import { buildClientInTemp } from './buildClient';
import { current, type QueryValue } from './engineQuery';
import { reportPages } from './pageReport';
import { nextPhone, signUp, startTestServer, TEST_PIN, type TestServer, type TestUser } from './server';

/** Helpers for e2e tests that drive the engine through `window.engine` in real Chromium tabs. */

export { current, type QueryValue } from './engineQuery';

export const CLIENT_DIR = process.env.E2E_CLIENT_DIR ?? path.resolve(import.meta.dirname, '../../dist');

/**
 * The deploy that follows the one the tabs were opened on, for the tests of the file this is called in: a
 * production build with another build id (so other worker files), made before them and removed after them.
 */
export function useNextBuild(buildId: string): { dir(): string } {
  let dir = '';
  beforeAll(() => {
    dir = buildClientInTemp(`messenger-${buildId}-`, { MESSENGER_BUILD_ID: buildId });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { dir: () => dir };
}

/**
 * A headless Chromium for the tests of the file this is called in: launched before them, closed after
 * them. Read `browser` in tests and hooks; `context()` gives a fresh profile that closes after the test.
 */
export function useChromium(): {
  readonly browser: Browser;
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
} {
  let launched: Browser | null = null;
  const contexts: BrowserContext[] = [];
  const browser = (): Browser => {
    if (!launched) throw new Error('Chromium runs only during the tests (read it in a test or hook)');
    return launched;
  };
  beforeAll(async () => {
    launched = await launchChromium();
  });
  afterEach(async (context) => {
    // What the tabs show, before they are closed (a failure on a busy CI machine may not happen here).
    if (context.task.result?.state === 'fail') console.log(await reportPages(contexts, context.task.name, context.task.result.errors?.[0]));
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await launched?.close();
    launched = null;
  });
  return {
    get browser() {
      return browser();
    },
    async context(options?: BrowserContextOptions) {
      const context = await browser().newContext(options);
      contexts.push(context);
      return context;
    },
  };
}

/** Opens a tab on the app and waits until its engine answers (the session query emits). */
export async function openTab(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await current(page, 'session');
  return page;
}


/** Polls a query in a tab until `check` passes (a Vitest assertion on the current value). */
export async function waitFor<K extends QueryName>(
  page: Page,
  query: K,
  args: Parameters<EngineApi[K]>,
  check: (value: QueryValue<K>) => void,
  timeout = 15_000,
): Promise<QueryValue<K>> {
  let last: QueryValue<K> | undefined;
  await expect
    .poll(
      async () => {
        last = await current(page, query, ...args);
        check(last);
        return true;
      },
      { timeout, interval: 200 },
    )
    .toBe(true);
  return last as QueryValue<K>;
}

export const sessionStatus = async (page: Page): Promise<SessionView['status']> =>
  (await current(page, 'session')).status;

/** The texts of a conversation's loaded messages in a tab. */
export async function messageTexts(page: Page, conversationId: number): Promise<string[]> {
  const view: MessageWindowView = await current(page, 'messages', conversationId);
  return view.messages.map((m) => m.message);
}

/** Signs a new user up through the engine of a tab (the real PIN flow; the test server's PIN is TEST_PIN). */
export async function signInThrough(page: Page, nickname: string): Promise<{ phone: string; userId: number }> {
  const phone = nextPhone();
  const session = await page.evaluate(
    async ([p, pin, name]) => {
      await window.engine.requestPin(p);
      await window.engine.confirmPin(p, pin);
      return window.engine.register(name);
    },
    [phone, TEST_PIN, nickname] as const,
  );
  if (session.status !== 'ready') throw new Error(`sign-in ended as ${session.status}`);
  return { phone, userId: session.userId };
}

/** Sends a text through a tab's engine; resolves with the outbox entry (pending until the server answers). */
export function sendText(page: Page, conversationId: number, text: string): Promise<OutboxEntry> {
  return page.evaluate(([id, t]) => window.engine.sendMessage(id, { text: t }), [conversationId, text] as const);
}

/** Creates a chat with `phone` through a tab's engine and returns its id. */
export async function createChat(page: Page, name: string, phone: string): Promise<number> {
  return page.evaluate(
    async ([n, p]) => {
      const { conversation } = await window.engine.call('createConversation', { members: [{ name: n, value: p }] });
      await window.engine.refreshConversations();
      await window.engine.openConversation(conversation.id);
      return conversation.id;
    },
    [name, phone] as const,
  );
}

/**
 * The usual start of a test that sends: a new user signed in through `page`, with a chat open with another
 * new user, "Friend", signed up through the API at `apiBase`.
 */
export async function signedInWithFriend(
  page: Page,
  apiBase: string,
  nickname: string,
): Promise<{ me: { phone: string; userId: number }; friend: TestUser; conversationId: number }> {
  const friend = await signUp(apiBase, 'Friend');
  const me = await signInThrough(page, nickname);
  const conversationId = await createChat(page, 'Friend', friend.phone);
  return { me, friend, conversationId };
}

/**
 * Closes a tab as if it crashed: from now on nothing it posts reaches the engine worker (no goodbye on
 * `pagehide`, no hidden or blurred TabState, no heartbeat), so its last TabState (visible, chat open)
 * stands until the engine notices the silence. Only its Web Locks are freed when it closes, as in a crash.
 */
export async function closeSilently(page: Page): Promise<void> {
  await page.evaluate(() => {
    MessagePort.prototype.postMessage = () => undefined;
  });
  await page.close();
}

/** URLs of the SharedWorkers running in the browser right now (Chrome DevTools Protocol). */
export async function runningSharedWorkers(browser: Browser): Promise<string[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    return targetInfos.filter((t) => t.type === 'shared_worker').map((t) => t.url);
  } finally {
    await cdp.detach();
  }
}

/**
 * Ends engine workers as a crash (or the browser's clean-up) would, with no goodbye to anyone. Without
 * `page`, every SharedWorker of the browser, closed over the DevTools protocol (`Target.closeTarget`);
 * with it, that tab's own dedicated worker (the leader-election fallback), which ends itself (`close()`
 * from inside: Chromium does not close a dedicated worker's target). Resolves with how many were ended.
 */
export async function closeEngineWorkers(browser: Browser, page?: Page): Promise<number> {
  if (page) {
    const workers = page.workers();
    for (const worker of workers) await worker.evaluate(() => (globalThis as unknown as { close(): void }).close());
    return workers.length;
  }
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    const doomed = targetInfos.filter((t) => t.type === 'shared_worker');
    for (const target of doomed) {
      // A worker may end by itself between the listing and the close (its last tab went): gone is what we want.
      await cdp.send('Target.closeTarget', { targetId: target.targetId }).catch((error: unknown) => {
        if (!/No target with given id/.test(String(error))) throw error;
      });
    }
    return doomed.length;
  } finally {
    await cdp.detach();
  }
}

/** The two ways tabs share one engine (design.md §1): the engine's recovery tests run with each. */
export const ENGINE_MODES = [
  ['SharedWorker', false],
  ['leader-election fallback', true],
] as const;

/** A fresh browser profile whose tabs share their engine the given way (`fallback`: no SharedWorker). */
export async function engineProfile(
  chromium: { context(options?: BrowserContextOptions): Promise<BrowserContext> },
  fallback: boolean,
): Promise<BrowserContext> {
  const context = await chromium.context();
  if (fallback) await withoutSharedWorker(context);
  return context;
}

/** Forces the leader-election fallback in every tab of the context: as if SharedWorker did not exist. */
export async function withoutSharedWorker(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    delete (window as { SharedWorker?: unknown }).SharedWorker;
  });
}

/** Rows in the server's messages table with this text. */
export async function storedCount(s: TestServer, text: string): Promise<number> {
  return (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM messages WHERE message = ${text}`))!.n;
}

/** A server that survives restarts: same port, same data directory, so tabs keep their origin and data. */
export class RestartableServer {
  private constructor(
    public current: TestServer | null,
    readonly port: number,
    readonly dataDir: string,
  ) {}

  static async start(): Promise<RestartableServer> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-e2e-'));
    const s = await startTestServer({ clientDir: CLIENT_DIR }, { keepDataDir: dataDir });
    return new RestartableServer(s, Number(new URL(s.url).port), dataDir);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get server(): TestServer {
    if (!this.current) throw new Error('the server is stopped');
    return this.current;
  }

  async stop(): Promise<void> {
    await this.current?.close();
    this.current = null;
  }

  /** Starts it again; `clientDir` deploys another build of the client with it. */
  async restart(clientDir = CLIENT_DIR): Promise<TestServer> {
    await this.stop();
    this.current = await startTestServer({ port: this.port, clientDir }, { keepDataDir: this.dataDir });
    return this.current;
  }

  /** Stops the server and deletes its data directory. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
};

/**
 * The built client without its API on `port`: what a tab sees when the app's files still load (from a
 * cache or a CDN) but the API server is down. API requests and websocket upgrades get their connection
 * dropped, as a stopped server's would be refused.
 */
export async function serveClientOnly(port: number, dir = CLIENT_DIR): Promise<{ close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (/^\/(v1|v2|files|ws)(\/|$)/.test(url.pathname)) {
      request.socket.destroy();
      return;
    }
    const file = path.join(dir, path.normalize(decodeURIComponent(url.pathname)));
    const found = file.startsWith(dir + path.sep) && existsSync(file) && statSync(file).isFile();
    const target = found ? file : path.join(dir, 'index.html');
    response.writeHead(200, { 'Content-Type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    createReadStream(target).pipe(response);
  });
  server.on('upgrade', (_request, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Signs an existing user in through a tab's engine (the real PIN flow). */
export async function signInAs(page: Page, phone: string, pin: string = TEST_PIN): Promise<void> {
  // An evaluate has no timeout of its own: a sign-in that never ends fails here by name, not as the test's timeout.
  const session = await page.evaluate(
    async ([p, code, ms]) => {
      const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`sign-in did not end in ${ms} ms`)), ms));
      await Promise.race([window.engine.requestPin(p), late]);
      return Promise.race([window.engine.confirmPin(p, code), late]);
    },
    [phone, pin, 20_000] as const,
  );
  if (session.status !== 'ready') throw new Error(`sign-in ended as ${session.status}`);
}

/** A user of the e2e tests: a REST token (for what a test does over the API) and a signed-in tab. */
export interface Person {
  user: TestUser;
  nickname: string;
  context: BrowserContext;
  page: Page;
}

/**
 * A new user signed up over REST and signed in in a tab of a fresh browser profile (from `chromium`,
 * `useChromium()`'s, which closes it after the test).
 */
export async function signedInPerson(
  chromium: { context(options?: BrowserContextOptions): Promise<BrowserContext> },
  s: Pick<TestServer, 'url'>,
  nickname: string,
  options: { country?: '46' | '62'; context?: BrowserContextOptions } = {},
): Promise<Person> {
  const user = await signUp(s.url, nickname, options.country ?? '46');
  const context = await chromium.context(options.context);
  const page = await openTab(context, s.url);
  await signInAs(page, user.phone);
  return { user, nickname, context, page };
}

/** How many conversations the engine's IndexedDB holds, read from the page (same origin), whatever any worker does. */
export const cachedConversationCount = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('messenger-engine');
        open.onerror = () => reject(open.error ?? new Error('could not open the database'));
        open.onsuccess = () => {
          const db = open.result;
          const count = db.transaction('conversations').objectStore('conversations').count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
        };
      }),
  );
