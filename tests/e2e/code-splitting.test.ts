import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import type { Page } from 'playwright';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  LOGIN_BUDGET_KIB,
  type Manifest,
  ROUTES,
  SCREENS,
  chunkKey,
  gzippedSize,
  routeFiles,
  routeSizes,
  staticFiles,
  workerFiles,
} from '../../scripts/build-report';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signInAs, useChromium } from '../support/tabs';

/**
 * Code splitting (issue 11), in Chromium against the reference server: every script the tab and the engine
 * worker fetch is seen where it arrives, at the server, and named by the build's manifest. A reader loads
 * the screen they see and their language's texts; other screens and the other language load when used.
 */

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** The build's chunks by what they hold: a screen (src/ui/routing/chunks/), texts, the workers, Sentry. */
let chunks: Map<string, string>;
let workerScript: string;
let manifest: Manifest;
/** The SharedWorker's script and the chunks it imports statically. */
let worker: string[];
/** The script paths the server was asked for since the test began (a fresh browser profile each time). */
let fetched: string[] = [];

beforeAll(() => {
  manifest = JSON.parse(readFileSync(path.join(CLIENT_DIR, '.vite/manifest.json'), 'utf8')) as Manifest;
  chunks = new Map();
  for (const screen of SCREENS) chunks.set(screen, `/${manifest[chunkKey(screen)]?.file}`);
  for (const chunk of Object.values(manifest)) if (chunk.name?.startsWith('locale-')) chunks.set(chunk.name, `/${chunk.file}`);
  chunks.set('sentry', `/${manifest['src/reporting/sentryTab.ts']?.file}`);
  worker = workerFiles(manifest, (file) => readFileSync(path.join(CLIENT_DIR, file), 'utf8'));
  workerScript = `/${worker[0]}`;
  // Each screen's chunk is a file of its own, and so is each language's texts.
  expect(new Set(chunks.values()).size).toBe(chunks.size);
  expect(staticFiles(manifest, [chunkKey('login')])).not.toContain(manifest[chunkKey('satir')]?.file);
  server.server.app.server.on('request', (request: IncomingMessage) => {
    const url = request.url ?? '';
    if (url.endsWith('.js')) fetched.push(url);
  });
});

beforeEach(() => {
  fetched = [];
});

/** Which of the named chunks have been fetched so far. */
const loaded = () => [...chunks].filter(([, file]) => fetched.includes(file)).map(([name]) => name).sort();

/**
 * Waits until no script has been fetched for a while, so whatever the page was going to load with what it
 * shows has been asked for. (Not Playwright's networkidle: the engine's worker keeps a socket and polls.)
 */
async function settled(page: Page): Promise<void> {
  let seen = -1;
  while (seen !== fetched.length) {
    seen = fetched.length;
    await page.waitForTimeout(750);
  }
}

/** Records every text key (`login.phone.title`) the page shows from now on, as the DOM changes. */
async function watchForKeys(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { keysSeen: string[] }).keysSeen = seen;
    new MutationObserver(() => {
      const key = /\b(?:chat|chatActions|chatSettings|comments|common|debug|errors|explore|inbox|login|nav|notifications|settings)\.[\w.]+/g;
      for (const match of document.body.innerText.matchAll(key)) seen.push(match[0]);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const keysSeen = (page: Page) => page.evaluate(() => (window as unknown as { keysSeen: string[] }).keysSeen);

describe('code splitting', () => {
  // The budget is the one rule on what /login may load (design.md §4): RxJS's own operators, conversions and
  // all, are in it since issue 22 rather than kept out by hand-written copies.
  it(`keeps the gzipped JavaScript /login loads, page and worker, within ${LOGIN_BUDGET_KIB} KiB in either language`, () => {
    const sizeOf = (file: string) => gzippedSize(readFileSync(path.join(CLIENT_DIR, file)));
    for (const language of ['en', 'sv']) {
      const [login] = routeSizes(manifest, worker, sizeOf, language, [ROUTES[0] as (typeof ROUTES)[number]]);
      expect(login?.route).toBe('/login');
      expect((login?.total ?? Infinity) / 1024).toBeLessThanOrEqual(LOGIN_BUDGET_KIB);
    }
  });

  it('loads only the login screen and the English texts on /login for an English reader, Swedish on switching', async () => {
    const context = await chromium.context({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Sign in with your phone number' }).waitFor();
    await settled(page);
    // The engine's worker is running: its script came too (the SharedWorker's, as the report counts it).
    await expect.poll(() => fetched).toContain(workerScript);
    expect(loaded()).toEqual(['locale-en', 'login']);
    // Exactly what the build report counts for /login came, tab and worker: the worker's signed-in parts
    // (src/engine/signedInParts.ts) wait for a sign-in.
    const counted = [...routeFiles(manifest, ROUTES[0] as (typeof ROUTES)[number], 'en'), ...worker].map((file) => `/${file}`);
    expect([...new Set(fetched)].sort()).toEqual(counted.sort());

    // A second tab follows the switch (the engine keeps the choice); neither shows a key while Swedish loads.
    const other = await context.newPage();
    await other.goto(`${server.url}/login`);
    await other.getByRole('heading', { name: 'Sign in with your phone number' }).waitFor();
    for (const tab of [page, other]) await watchForKeys(tab);
    await page.getByRole('button', { name: 'Svenska' }).click();
    for (const tab of [page, other]) {
      await tab.getByRole('heading', { name: 'Logga in med ditt telefonnummer' }).waitFor();
      expect(await tab.getAttribute('html', 'lang')).toBe('sv');
      expect(await keysSeen(tab)).toEqual([]);
    }
    await settled(page);
    // The Swedish texts of the login screen only; the rest of the app's texts wait for the screens behind it.
    expect(loaded()).toEqual(['locale-en', 'locale-sv', 'login']);
  });

  it('starts a Swedish reader in Swedish, without the English texts', async () => {
    const context = await chromium.context({ locale: 'sv-SE' });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Logga in med ditt telefonnummer' }).waitFor();
    await settled(page);
    expect(loaded()).toEqual(['locale-sv', 'login']);
  });

  it('loads the protest page and the debug screen as chunks of their own', async () => {
    const context = await chromium.context({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/satir`);
    await page.getByRole('button', { name: 'Send code' }).waitFor();
    await settled(page);
    // The login screen's code comes with it (a chunk both share), not the standard screen's own chunk; its own
    // texts are the app group's (satir.json), which /login never loads (docs/ui.md "Error texts").
    expect(loaded()).toEqual(['locale-en', 'locale-en-app', 'satir']);

    await page.goto(`${server.url}/debug`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await settled(page);
    // The debug screen's texts are among the app's.
    expect(loaded()).toEqual(['debug', 'locale-en', 'locale-en-app', 'satir']);
  });

  it('loads the main screen after signing in, and the chat view, settings and communities when opened', async () => {
    const friend = await signUp(server.url, 'Friend');
    // Indonesia (62) has communities (spec §9), so the menu offers them.
    const me = await signUp(server.url, 'Reader', '62');
    // Without the service worker the main screen registers (issue 13): its precaching would fetch every chunk,
    // and the chunks it holds would no longer reach the server. tests/e2e/offline-shell.test.ts tests it.
    const context = await chromium.context({ locale: 'en-US', viewport: { width: 1200, height: 800 }, serviceWorkers: 'block' });
    const page = await openTab(context, `${server.url}/login`);
    await signInAs(page, me.phone);
    const conversationId = await page.evaluate(
      async ([phone]) => {
        const { conversation } = await window.engine.call('createConversation', { members: [{ name: 'Friend', value: phone }] });
        await window.engine.refreshConversations();
        return conversation.id;
      },
      [friend.phone] as const,
    );
    await page.locator('.inbox-row', { hasText: 'Friend' }).waitFor();
    await settled(page);
    expect(loaded()).toEqual(['locale-en', 'locale-en-app', 'login', 'main']);

    await page.locator('.inbox-row', { hasText: 'Friend' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/inbox/${conversationId}`);
    await page.getByRole('textbox', { name: 'Message' }).waitFor();
    await settled(page);
    expect(loaded()).toEqual(['chat', 'locale-en', 'locale-en-app', 'login', 'main']);

    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await menu.getByRole('link', { name: 'Settings' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/settings');
    await settled(page);
    expect(loaded()).toEqual(['chat', 'locale-en', 'locale-en-app', 'login', 'main', 'settings']);

    await menu.getByRole('link', { name: 'Communities' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/explore');
    await settled(page);
    // Never the other language, the debug screen, the protest page, or Sentry (this build has no DSN).
    expect(loaded()).toEqual(['chat', 'explore', 'locale-en', 'locale-en-app', 'login', 'main', 'settings']);

    // Switching here fetches both groups of the Swedish texts before showing any, so no key shows.
    await menu.getByRole('link', { name: 'Settings' }).click();
    await watchForKeys(page);
    await page.getByLabel('Language').selectOption('sv');
    await page.getByRole('heading', { name: 'Inställningar' }).first().waitFor();
    await page.getByRole('navigation', { name: 'Huvudmeny' }).getByRole('link', { name: 'Chattar' }).waitFor();
    expect(await keysSeen(page)).toEqual([]);
    await settled(page);
    expect(loaded()).toContain('locale-sv');
    expect(loaded()).toContain('locale-sv-app');
  });
});
