import type { Page } from 'playwright';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../support/server';
import { socketProxy, type SocketProxy } from '../support/socketProxy';
import {
  current,
  ENGINE_MODES,
  engineProfile,
  messageTexts,
  openTab,
  RestartableServer,
  sendText,
  signedInWithFriend,
  storedCount,
  useChromium,
  useNextBuild,
} from '../support/tabs';

const chromium = useChromium();
const NEXT_BUILD = 'next-deploy';
const nextBuild = useNextBuild(NEXT_BUILD);

let s: RestartableServer;
let proxy: SocketProxy;
beforeEach(async () => {
  s = await RestartableServer.start();
  proxy = await socketProxy(s.port);
});
afterEach(async () => {
  await proxy.close();
  await s.dispose();
});

/** The build a tab runs now; null while it is between two pages (reloading). */
async function buildOf(page: Page): Promise<string | null> {
  try {
    return await page.evaluate(() => window.engine.build.id);
  } catch {
    return null;
  }
}

describe.each(ENGINE_MODES)('a new build deployed while tabs are open (%s)', (_mode, fallback) => {
  it('ends with one engine and one websocket, every tab on the new build, the queued message sent once', async () => {
    const context = await engineProfile(chromium, fallback);
    const first = await openTab(context, proxy.url);
    const { friend, conversationId } = await signedInWithFriend(first, s.url, 'Deployed');
    const oldTabs = [first, await openTab(context, proxy.url), await openTab(context, proxy.url)];
    const oldBuild = await buildOf(first);
    expect(oldBuild).not.toBe(NEXT_BUILD);
    for (const tab of oldTabs) await expect.poll(() => current(tab, 'connection')).toBe('online');
    await expect.poll(() => proxy.websocketCount).toBe(1);

    // A message written while the server is down for the deploy waits in the old engine's outbox.
    await s.stop();
    await sendText(oldTabs[1]!, conversationId, 'queued across the deploy');
    await s.restart(nextBuild.dir());

    // A page of the new build loads: its engine takes over, the old tabs reload into the new build.
    const newTab = await openTab(context, proxy.url);
    expect(await buildOf(newTab)).toBe(NEXT_BUILD);
    const tabs = [...oldTabs, newTab];
    for (const tab of tabs) await expect.poll(() => buildOf(tab), { timeout: 15_000 }).toBe(NEXT_BUILD);
    for (const tab of tabs) await expect.poll(() => current(tab, 'connection')).toBe('online');
    await expect.poll(() => proxy.websocketCount).toBe(1);

    for (const tab of tabs) await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['queued across the deploy']);
    await expect.poll(async () => (await current(newTab, 'outbox')).length).toBe(0);
    expect(await storedCount(s.server, 'queued across the deploy')).toBe(1);

    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: 4, message: 'on the new build' },
    }).then((r) => r.data);
    for (const tab of tabs) {
      await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['queued across the deploy', 'on the new build']);
    }
    expect(proxy.websocketCount).toBe(1);
  });
});
