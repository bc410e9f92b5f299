import { afterEach, describe, expect, it } from 'vitest';
import { openTab, RestartableServer, serveClientOnly, signedInWithFriend, useChromium } from '../support/tabs';

/**
 * Issue 23, item 2: a chat whose messages cannot load (the server is down) shows the cached chat under a
 * banner of two punctuated sentences; Retry tries again where the user is, and the banner goes by itself
 * once the server is back and the chat loads.
 */

const chromium = useChromium();
let s: RestartableServer;

afterEach(async () => {
  await s?.dispose();
});

describe('the chat load-error banner', () => {
  it('is punctuated, retries in place and clears itself when the server is back', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(page, s.url, 'Banner');
    const chatPath = `/inbox/${conversationId}`;
    await page.goto(`${s.url}${chatPath}`);
    await page.getByRole('heading', { name: 'Friend' }).waitFor();

    await s.stop();
    const clientOnly = await serveClientOnly(s.port);
    const banner = page.locator('[data-chat-error="open"]');
    try {
      await page.reload();
      await banner.waitFor({ timeout: 20_000 });
      // The cached chat stays under it.
      expect(await page.getByRole('heading', { name: 'Friend' }).count()).toBe(1);
      const text = (await banner.locator('.chat-list-error__text').innerText()).trim();
      expect(text).toMatch(/^Failed to load conversation\. \S.*[.!?]$/u);

      await banner.getByRole('button', { name: 'Retry' }).click();
      // Still the chat: Retry no longer throws the user to /inbox.
      await page.waitForTimeout(500);
      expect(new URL(page.url()).pathname).toBe(chatPath);
      await banner.waitFor();
    } finally {
      await clientOnly.close();
    }

    await s.restart();
    await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(0);
    expect(new URL(page.url()).pathname).toBe(chatPath);
  });
});
