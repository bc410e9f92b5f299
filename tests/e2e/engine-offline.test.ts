import type { Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cachedConversationCount,
  current,
  messageTexts,
  openTab,
  RestartableServer,
  runningSharedWorkers,
  serveClientOnly,
  sendText,
  sessionStatus,
  signedInWithFriend,
  storedCount,
  useChromium,
} from '../support/tabs';

const chromium = useChromium();
let s: RestartableServer;

afterEach(async () => {
  await s?.dispose();
});

describe('the engine offline (SharedWorker)', () => {
  it('shows the cached list and the open chat after a reload with the server stopped', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context();
    const page = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(page, s.url, 'Cached');
    await sendText(page, conversationId, 'kept across reloads');
    await expect.poll(() => messageTexts(page, conversationId)).toEqual(['kept across reloads']);
    await expect.poll(() => cachedConversationCount(page)).toBe(1);

    await s.stop();
    const clientOnly = await serveClientOnly(s.port);
    let cold: Page;
    try {
      await page.reload();
      const list = await current(page, 'conversations');
      expect(list.map((c) => c.conversation.id)).toEqual([conversationId]);
      expect(await sessionStatus(page)).toBe('ready');
      // The chat's first answer is already the stored window (the engine answers once it has read the store),
      // and offline nothing refills it. The reload comes right after the message showed, often within the
      // write delay: the message is stored only because the old engine writes what waits as its tab goes
      // away (Engine.closeTab), before the SharedWorker ends with the page.
      await expect.poll(() => messageTexts(page, conversationId)).toEqual(['kept across reloads']);
      expect(await current(page, 'connection')).not.toBe('online');

      // Cold: the tab closes, the SharedWorker ends with it, and a new tab's new engine reads the store.
      await page.close();
      await expect.poll(() => runningSharedWorkers(chromium.browser)).toEqual([]);
      cold = await openTab(context, s.url);
      expect((await current(cold, 'conversations')).map((c) => c.conversation.id)).toEqual([conversationId]);
      expect(await sessionStatus(cold)).toBe('ready');
      await expect.poll(() => messageTexts(cold, conversationId)).toEqual(['kept across reloads']);
    } finally {
      await clientOnly.close();
    }

    // The server comes back: the tab goes online again by itself.
    await s.restart();
    await expect.poll(() => current(cold, 'connection'), { timeout: 15_000 }).toBe('online');
  });

  it('sends a message written while the server is down exactly once when it comes back', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context();
    const a = await openTab(context, s.url);
    const b = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(a, s.url, 'Outbox');

    await s.stop();
    await expect.poll(() => current(a, 'connection')).not.toBe('online');
    const entry = await sendText(b, conversationId, 'written offline');
    expect(entry.status).toBe('pending');
    // Pending at once, in every tab.
    for (const tab of [a, b]) {
      await expect.poll(async () => (await current(tab, 'outbox')).map((e) => e.localId)).toEqual([entry.localId]);
    }

    const back = await s.restart();
    for (const tab of [a, b]) {
      await expect.poll(async () => (await current(tab, 'outbox')).length, { timeout: 20_000 }).toBe(0);
    }
    for (const tab of [a, b]) await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['written offline']);
    expect(await storedCount(back, 'written offline')).toBe(1);
  });

  it('sends it exactly once also when every tab was closed and one is reopened', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context();
    const first = await openTab(context, s.url);
    const second = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(first, s.url, 'Closer');

    await s.stop();
    const entry = await sendText(second, conversationId, 'sent after closing');
    expect(entry.status).toBe('pending');
    expect(await runningSharedWorkers(chromium.browser)).toHaveLength(1);
    await first.close();
    await second.close();
    // With its last tab gone the SharedWorker ends: the reopened tab gets a new engine, started from storage.
    await expect.poll(() => runningSharedWorkers(chromium.browser)).toEqual([]);

    const back = await s.restart();
    const reopened = await openTab(context, s.url);
    await expect.poll(async () => (await current(reopened, 'outbox')).length, { timeout: 20_000 }).toBe(0);
    await expect.poll(() => storedCount(back, 'sent after closing')).toBe(1);
    await reopened.evaluate((id) => window.engine.openConversation(id), conversationId);
    await expect.poll(() => messageTexts(reopened, conversationId)).toEqual(['sent after closing']);
    expect(await storedCount(back, 'sent after closing')).toBe(1);
  });
});
