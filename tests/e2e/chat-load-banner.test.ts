import { afterEach, describe, expect, it } from 'vitest';
import { call, signUp } from '../support/server';
import { current, openTab, RestartableServer, serveClientOnly, signedInWithFriend, useChromium } from '../support/tabs';
import { faultProxy } from '../support/faultProxy';

/**
 * Opening a chat when its messages cannot load (docs/ui.md "Offline and installation" and "Where each §8 text
 * shows"). Offline with a cache is no error: the cached chat shows under the connection line alone, and what is
 * missing comes when the socket is back. A failure while the app is online shows a banner of two punctuated
 * sentences whose Retry tries again where the user is, and which goes by itself once the chat loads.
 */

const chromium = useChromium();
let s: RestartableServer;

afterEach(async () => {
  await s?.dispose();
});

describe('a chat opened while the server is down', () => {
  it.each([
    ['en', 'Offline. Reconnecting…', 'Messages will load when the connection is back.'],
    ['sv', 'Frånkopplad. Ansluter igen…', 'Meddelandena hämtas när anslutningen är tillbaka.'],
  ])('(%s) shows what is cached with no error, and loads the rest when the socket is back', async (language, strip, waiting) => {
    s = await RestartableServer.start();
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const { me, friend, conversationId } = await signedInWithFriend(page, s.url, 'Offline');
    await page.evaluate((l) => window.engine.setLanguage(l), language as 'en' | 'sv');
    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: 11, message: 'Cached hello' },
    });
    // A second chat the list knows but this device never opened: nothing of it is cached.
    const other = await signUp(s.url, 'Other');
    const created = await call<{ conversation: { id: number } }>(s.url, 'POST', '/v2/conversations', {
      token: other.token,
      form: { 'member[0][name]': 'Me', 'member[0][type]': 'phone_nr', 'member[0][value]': me.phone },
    });
    const secondId = created.data.conversation.id;
    await call(s.url, 'POST', `/v2/conversations/${secondId}/messages`, {
      token: other.token,
      json: { client_id: 12, message: 'Waited for' },
    });
    await page.goto(`${s.url}/inbox/${conversationId}`);
    await page.getByRole('log').getByText('Cached hello').waitFor();
    await expect.poll(async () => (await current(page, 'conversations')).some((c) => c.conversation.id === secondId)).toBe(true);

    await s.stop();
    const clientOnly = await serveClientOnly(s.port);
    try {
      await page.reload();
      await page.getByText(strip).first().waitFor({ timeout: 20_000 });
      await page.getByRole('log').getByText('Cached hello').waitFor();
      await page.goto(`${s.url}/inbox/${secondId}`);
      await page.getByText(waiting).waitFor({ timeout: 20_000 });
      await page.goto(`${s.url}/inbox/${conversationId}`);
      await page.getByRole('log').getByText('Cached hello').waitFor();
      // Give the opening time to fail: it must not turn into an error.
      const opened = (id: number) => window.engine.openConversation(id).then(() => 'answered', () => 'failed');
      expect(await page.evaluate(opened, conversationId)).toBe('failed');
      expect(await page.locator('[data-chat-error="open"]').count()).toBe(0);
      expect(await page.getByRole('alert').filter({ hasText: /Failed|Det gick inte/ }).count()).toBe(0);
      await page.goto(`${s.url}/inbox/${secondId}`);
      await page.getByText(waiting).waitFor();
    } finally {
      await clientOnly.close();
    }

    await s.restart();
    await page.getByText('Waited for').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-chat-error="open"]').count()).toBe(0);
  });
});

describe('the chat load-error banner', () => {
  it('is punctuated, retries in place and clears itself when the chat loads', async () => {
    s = await RestartableServer.start();
    const proxy = await faultProxy(s.port);
    try {
      const context = await chromium.context();
      const page = await openTab(context, proxy.url);
      const { conversationId } = await signedInWithFriend(page, proxy.url, 'Banner');
      const chatPath = `/inbox/${conversationId}`;
      await page.goto(`${proxy.url}${chatPath}`);
      await page.getByRole('heading', { name: 'Friend' }).waitFor();

      // Online, and the server cannot give the chat's messages: that is an error, and says so.
      proxy.fail('GET', /^\/v2\/conversations\/\d+\/messages/, { kind: 'refuse', status: 503 });
      const banner = page.locator('[data-chat-error="open"]');
      await page.reload();
      await banner.waitFor({ timeout: 20_000 });
      // The cached chat stays under it.
      expect(await page.getByRole('heading', { name: 'Friend' }).count()).toBe(1);
      const text = (await banner.locator('.chat-list-error__text').innerText()).trim();
      expect(text).toMatch(/^Failed to load conversation\. \S.*[.!?]$/u);

      await banner.getByRole('button', { name: 'Retry' }).click();
      // Still the chat: Retry no longer throws the user to /inbox.
      expect(new URL(page.url()).pathname).toBe(chatPath);
      await banner.waitFor();

      proxy.clear();
      await banner.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => banner.count(), { timeout: 20_000 }).toBe(0);
      expect(new URL(page.url()).pathname).toBe(chatPath);
    } finally {
      await proxy.close();
    }
  });
});
