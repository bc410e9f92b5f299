import type { Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANSWER_TIMEOUT_MS } from '../../src/worker/liveness';
import { call } from '../support/server';
import {
  closeEngineWorkers,
  current,
  ENGINE_MODES,
  engineProfile,
  messageTexts,
  openTab,
  RestartableServer,
  sendText,
  serveClientOnly,
  signedInWithFriend,
  storedCount,
  useChromium,
} from '../support/tabs';

const chromium = useChromium();
let s: RestartableServer;
beforeEach(async () => {
  s = await RestartableServer.start();
});
afterEach(() => s.dispose());

/** Marks the page, so that a reload (which would clear the mark) is seen. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { notReloaded: true }));
const stillMarked = (page: Page) => page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded === true);

/** Whether the tab's engine answers a command within a second (a dead worker never answers). */
const answers = (page: Page) =>
  page.evaluate(() =>
    Promise.race([
      window.engine.canEdit(0).then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1_000)),
    ]),
  );

describe.each(ENGINE_MODES)('a killed engine worker (%s)', (_mode, fallback) => {
  it('is replaced at once: every tab works again without a reload, the queued message is sent once, drafts are kept', async () => {
    const context = await engineProfile(chromium, fallback);
    const first = await openTab(context, s.url);
    const { friend, conversationId } = await signedInWithFriend(first, s.url, 'Survivor');
    const tabs = [first, await openTab(context, s.url), await openTab(context, s.url)];
    for (const tab of tabs) {
      await expect.poll(() => current(tab, 'connection')).toBe('online');
      await mark(tab);
    }
    await first.evaluate((id) => window.engine.setDraft(id, 'a draft kept across the crash'), conversationId);

    // Queued right before the kill: the API is down (the app's files still load), so it waits in the outbox.
    await s.stop();
    const filesOnly = await serveClientOnly(s.port);
    await sendText(tabs[1]!, conversationId, 'queued before the kill');
    await expect.poll(async () => (await current(tabs[2]!, 'outbox')).map((e) => e.text)).toEqual(['queued before the kill']);

    const killedAt = Date.now();
    // The SharedWorker, or in the fallback the leader's worker (the first tab's, which took the lease first).
    expect(await closeEngineWorkers(chromium.browser, fallback ? first : undefined)).toBe(1);
    for (const tab of tabs) await expect.poll(() => answers(tab), { interval: 50 }).toBe(true);
    // The heartbeat alone would take ANSWER_TIMEOUT_MS or more; `npm run bench` measures the real figure.
    expect(Date.now() - killedAt).toBeLessThan(ANSWER_TIMEOUT_MS / 2);
    for (const tab of tabs) {
      expect(await stillMarked(tab)).toBe(true);
      expect((await current(tab, 'outbox')).map((e) => e.text)).toEqual(['queued before the kill']);
      expect((await current(tab, 'drafts'))[conversationId]).toBe('a draft kept across the crash');
    }

    await filesOnly.close();
    await s.restart();
    for (const tab of tabs) {
      await expect.poll(() => current(tab, 'connection')).toBe('online');
      await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['queued before the kill']);
    }
    await expect.poll(async () => (await current(first, 'outbox')).length).toBe(0);
    expect(await storedCount(s.server, 'queued before the kill')).toBe(1);

    // The new engine's socket delivers live to every tab, and every tab sends through it.
    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: 9, message: 'after the crash' },
    }).then((r) => r.data);
    await sendText(tabs[2]!, conversationId, 'from the third tab');
    for (const tab of tabs) {
      await expect
        .poll(() => messageTexts(tab, conversationId))
        .toEqual(['queued before the kill', 'after the crash', 'from the third tab']);
      expect(await stillMarked(tab)).toBe(true);
    }
    expect(await storedCount(s.server, 'from the third tab')).toBe(1);
    expect(s.server.server.hub.connectionCount()).toBe(1);
  });
});
