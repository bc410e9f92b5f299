import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium as playwrightChromium, type Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../support/chromium';
import {
  current,
  openTab,
  RestartableServer,
  sendText,
  signedInWithFriend,
  storedCount,
  useChromium,
} from '../support/tabs';

/**
 * Issue 13: the app opens without the server. The main screen registers the service worker (Workbox,
 * vite.config.ts), which precaches the build; with the server stopped, a reload of any route gets the app
 * shell from it, and the engine shows what IndexedDB keeps.
 */

const chromium = useChromium();
let s: RestartableServer;

afterEach(async () => {
  await s?.dispose();
});

/** Waits until the service worker controls the tab with the whole build precached (it activates only then). */
async function controlled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 20_000 })
    .toBe('activated');
}

/** A signed-in tab on /inbox with a chat holding one message, under the service worker. */
async function signedInOnline(context: BrowserContext, nickname: string) {
  const page = await openTab(context, s.url);
  const { conversationId } = await signedInWithFriend(page, s.url, nickname);
  await sendText(page, conversationId, 'kept for offline');
  await page.locator('.inbox-row', { hasText: 'Friend' }).waitFor();
  await controlled(page);
  return { page, conversationId };
}

/** The installability check, the manifest, and the service worker's and manifest's headers. */
async function checkInstallable(context: BrowserContext): Promise<void> {
  const { page } = await signedInOnline(context, 'Installer');

  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
  expect(installabilityErrors).toEqual([]);
  const { url, errors } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
  expect(new URL(url).pathname).toBe('/manifest.webmanifest');
  expect(errors).toEqual([]);

  const sw = await fetch(`${s.url}/sw.js`);
  expect(sw.status).toBe(200);
  expect(sw.headers.get('cache-control')).toBe('no-cache');
  expect(sw.headers.get('content-type')).toMatch(/javascript/);
  const manifest = await fetch(`${s.url}/manifest.webmanifest`);
  expect(manifest.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
  expect(await manifest.json()).toMatchObject({ short_name: 'Messenger', start_url: '/inbox', display: 'standalone' });
  // The service worker never answers for the API: the server does, in JSON.
  expect(await page.evaluate(() => fetch('/v1/nothing-here').then((r) => r.headers.get('content-type')))).toMatch(/json/);
}

describe('the offline shell', () => {
  it('passes Chromium\'s installability check, with the service worker and manifest served as they should be', async () => {
    s = await RestartableServer.start();
    // Chromium offers no install in an incognito profile (what a new browser context is): a profile on disk.
    const profile = mkdtempSync(path.join(tmpdir(), 'messenger-install-'));
    const context = await playwrightChromium.launchPersistentContext(profile, { headless: true, ...chromiumLaunchOptions() });
    try {
      await checkInstallable(context);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });

  it('reopens the inbox, a chat and settings with the server stopped, and sends what was typed once it is back', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context({ viewport: { width: 1200, height: 800 } });
    const { page, conversationId } = await signedInOnline(context, 'Offline');

    await s.stop();
    // The inbox: the app shell from the service worker, the cached list, and the offline line.
    await page.reload();
    await page.locator('.inbox-row', { hasText: 'Friend' }).waitFor();
    await expect.poll(() => page.locator('.connection').getAttribute('data-state')).not.toBe('online');
    await expect.poll(() => page.locator('.connection__text').textContent()).toMatch(/Offline|Connecting/);

    // A chat: its cached messages, and a composer that queues in the outbox.
    await page.goto(`${s.url}/inbox/${conversationId}`);
    // In the chat's list (the chats list beside it shows it too, as the last message's preview).
    await page.getByRole('log').getByText('kept for offline').waitFor();
    const textbox = page.getByRole('textbox', { name: 'Message', exact: true });
    await textbox.fill('typed offline');
    await textbox.press('Enter');
    await page.getByRole('log').getByText('typed offline').waitFor();
    await expect.poll(async () => (await current(page, 'outbox')).map((e) => e.text)).toEqual(['typed offline']);

    // Settings.
    await page.goto(`${s.url}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).first().waitFor();
    // What the server owns never gets the app shell: offline, a navigation to it fails as it would.
    const other = await context.newPage();
    await expect(other.goto(`${s.url}/files/1/nothing.png`)).rejects.toThrow(/ERR_CONNECTION_REFUSED|ERR_FAILED/);
    await other.close();

    // The server returns: the message goes, once.
    const back = await s.restart();
    await expect.poll(async () => (await current(page, 'outbox')).length, { timeout: 20_000 }).toBe(0);
    await expect.poll(() => current(page, 'connection')).toBe('online');
    expect(await storedCount(back, 'typed offline')).toBe(1);
  });
});
