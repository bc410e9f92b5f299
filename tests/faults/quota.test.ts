import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions } from '../support/chromium';
import { cachedConversationCount, current, messageTexts, openTab, RestartableServer, signedInWithFriend, storedCount } from '../support/tabs';
import { SHORT } from './size';
import { record } from './tally';

/**
 * Issue 12, item 6: real Chromium, the real app and engine (in its SharedWorker), the real server. The user
 * signs in; the browser closes; when it opens again the origin has a 1-byte storage quota (Chrome's own
 * mechanism, CDP Storage.overrideQuotaForOrigin, set before the app touches IndexedDB: Chrome reads an
 * origin's quota when its storage first opens), so every IndexedDB write that adds data fails with
 * QuotaExceededError while reads work. The user is told, in their language, what that means; what they
 * type is still sent, once each, and shows; once there is room again, the notice goes.
 */
const MESSAGES = SHORT ? 3 : 10;

let s: RestartableServer | null = null;
let context: BrowserContext | null = null;
let profile = '';
afterEach(async () => {
  await context?.close();
  context = null;
  await s?.dispose();
  s = null;
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A browser on a profile directory of its own, so a second launch finds the first one's IndexedDB. */
const launch = () => chromium.launchPersistentContext(profile, { headless: true, ...chromiumLaunchOptions() });

const banner = (page: Page) => page.locator('.storage-full[role="alert"]');

describe('IndexedDB over its quota', () => {
  it('shows a clear error, loses nothing typed, and still sends each message once', async () => {
    s = await RestartableServer.start();
    const server = s;
    profile = mkdtempSync(path.join(tmpdir(), 'messenger-quota-'));
    context = await launch();
    const first = await openTab(context, server.url);
    const { conversationId } = await signedInWithFriend(first, server.url, 'Quota');
    // The session and the chat are in IndexedDB before the browser closes.
    await expect.poll(() => cachedConversationCount(first)).toBe(1);
    await context.close();

    context = await launch();
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    const origin = new URL(server.url).origin;
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1 });
    await page.goto(`${server.url}/inbox/${conversationId}`);
    expect((await current(page, 'session')).status).toBe('ready');
    const textbox = page.getByRole('textbox', { name: 'Message', exact: true });
    await expect.poll(() => textbox.count()).toBe(1);

    const texts = Array.from({ length: MESSAGES }, (_, i) => `typed on a full disk ${i + 1}`);
    for (const text of texts) {
      await textbox.fill(text);
      await textbox.press('Enter');
      // Sent and shown before the next is typed, so the composer never holds two.
      await expect.poll(() => page.getByRole('log').getByText(text, { exact: true }).count()).toBe(1);
    }
    await expect.poll(() => banner(page).textContent()).toBe(
      'This device is out of storage space. Messages are still sent, but new ones are not kept on this device until space is freed.',
    );
    for (const text of texts) expect(await storedCount(server.server, text)).toBe(1);
    await expect.poll(() => messageTexts(page, conversationId)).toEqual(texts);
    // Nothing waits in the outbox: each went out from memory.
    expect(await current(page, 'outbox')).toEqual([]);

    // In Swedish too.
    await page.evaluate(() => window.engine.setLanguage('sv'));
    await expect.poll(() => banner(page).textContent()).toBe(
      'Lagringsutrymmet på den här enheten är fullt. Meddelanden skickas ändå, men nya sparas inte på enheten förrän det finns plats igen.',
    );

    await page.evaluate(() => window.engine.setLanguage('en'));

    // Room again: the engine's next write fits (its state retries by itself) and the notice goes.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await expect.poll(() => banner(page).count(), { timeout: 30_000 }).toBe(0);
    await textbox.fill('after the disk was freed');
    await textbox.press('Enter');
    await expect.poll(() => storedCount(server.server, 'after the disk was freed')).toBe(1);

    const counts: number[] = [];
    for (const t of texts) counts.push(await storedCount(server.server, t));
    record({
      scenario: 'IndexedDB over its quota',
      faults: 1,
      sent: texts.length,
      lost: counts.filter((n) => n === 0).length,
      duplicated: counts.filter((n) => n > 1).length,
      note: `${texts.length} messages typed with a 1-byte quota: all sent once, the notice shown in en and sv`,
    });
  });
});
