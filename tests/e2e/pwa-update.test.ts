import type { BrowserContext, Page } from 'playwright';
import { afterEach, describe, expect, it } from 'vitest';
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
  waitFor,
} from '../support/tabs';

/**
 * Issue 13: a build deployed while tabs are open. No page of it loads by itself here: the tabs learn of it
 * from the service worker (checked when the connection returns after the deploy's restart), and move to it
 * together: by themselves when nothing is unsent, through "A new version is available — Reload" otherwise.
 */

const chromium = useChromium();
const NEXT_BUILD = 'pwa-next-deploy';
const nextBuild = useNextBuild(NEXT_BUILD);

let s: RestartableServer;
afterEach(async () => {
  await s?.dispose();
});

/** The build a tab runs now; null while it is between two pages (reloading). */
async function buildOf(page: Page): Promise<string | null> {
  try {
    return await page.evaluate(() => window.engine.build.id);
  } catch {
    return null;
  }
}

/** Two tabs of one profile on /inbox, under the service worker, with a chat with "Friend". */
async function twoTabs(context: BrowserContext, nickname: string) {
  const a = await openTab(context, s.url);
  const { conversationId } = await signedInWithFriend(a, s.url, nickname);
  const b = await openTab(context, `${s.url}/inbox`);
  for (const tab of [a, b]) {
    await tab.locator('.inbox-row', { hasText: 'Friend' }).waitFor();
    await expect
      .poll(() => tab.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 20_000 })
      .toBe('activated');
  }
  return { tabs: [a, b] as const, conversationId };
}

describe.each(ENGINE_MODES)('a new build deployed while two tabs are open (%s)', (_mode, fallback) => {
  it('moves both tabs to it by themselves once nothing is unsent, the queued message delivered once', async () => {
    s = await RestartableServer.start();
    const context = await engineProfile(chromium, fallback);
    const { tabs, conversationId } = await twoTabs(context, 'Updater');
    const oldBuild = await buildOf(tabs[0]);
    expect(oldBuild).not.toBe(NEXT_BUILD);

    // Written while the server is down for the deploy: it waits in the outbox.
    await s.stop();
    await sendText(tabs[1], conversationId, 'queued across the update');
    await s.restart(nextBuild.dir());

    for (const tab of tabs) await expect.poll(() => buildOf(tab), { timeout: 30_000 }).toBe(NEXT_BUILD);
    for (const tab of tabs) await expect.poll(() => current(tab, 'connection'), { timeout: 15_000 }).toBe('online');
    for (const tab of tabs) {
      await expect.poll(() => messageTexts(tab, conversationId), { timeout: 15_000 }).toEqual(['queued across the update']);
    }
    expect((await current(tabs[0], 'outbox')).length).toBe(0);
    expect(await storedCount(s.server, 'queued across the update')).toBe(1);
  });
});

describe('a new build deployed while a draft is being written', () => {
  it('offers "A new version is available — Reload" in both tabs, and keeps the draft', async () => {
    s = await RestartableServer.start();
    const context = await chromium.context({ viewport: { width: 1200, height: 800 } });
    const { tabs, conversationId } = await twoTabs(context, 'Writer');
    const [writer, other] = tabs;
    await writer.goto(`${s.url}/inbox/${conversationId}`);
    await writer.getByRole('textbox', { name: 'Message', exact: true }).fill('half a thought');
    await waitFor(writer, 'drafts', [], (drafts) => expect(drafts[conversationId]).toBe('half a thought'));

    await s.stop();
    await s.restart(nextBuild.dir());

    // Both tabs learn of it, and neither reloads under the writer.
    for (const tab of tabs) {
      await tab.getByRole('status').filter({ hasText: 'A new version is available' }).waitFor({ timeout: 30_000 });
    }
    expect(await buildOf(writer)).not.toBe(NEXT_BUILD);

    await other.getByRole('button', { name: 'Reload' }).click();
    // The reloaded tab is of the new build and takes the engine; the writer's tab follows with its draft.
    for (const tab of tabs) await expect.poll(() => buildOf(tab), { timeout: 30_000 }).toBe(NEXT_BUILD);
    await expect.poll(() => writer.getByRole('textbox', { name: 'Message', exact: true }).inputValue()).toBe('half a thought');
    expect((await current(other, 'drafts'))[conversationId]).toBe('half a thought');
  });
});
