import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  current,
  ENGINE_MODES,
  engineProfile,
  openTab,
  RestartableServer,
  runningSharedWorkers,
  sendText,
  serveClientOnly,
  signedInWithFriend,
  useChromium,
} from '../support/tabs';
import { delivery, shownTexts, storedTexts } from './delivery';
import { SIZE } from './size';
import { record } from './tally';

/**
 * Issue 12, item 4: every tab is closed while messages sit in the outbox (the API is down; the app's files
 * still load), so no engine is left to send them; one tab is opened again once the server is back: its new
 * engine finds them in IndexedDB and sends each once, in order.
 */

const chromium = useChromium();
let s: RestartableServer;
beforeEach(async () => {
  s = await RestartableServer.start();
});
afterEach(() => s.dispose());

describe.each(ENGINE_MODES)('every tab closed with a full outbox (%s)', (mode, fallback) => {
  it(`sends all ${SIZE.closedTabMessages} once when one tab is opened again`, async () => {
    const context = await engineProfile(chromium, fallback);
    const first = await openTab(context, s.url);
    const { conversationId } = await signedInWithFriend(first, s.url, 'Closer');
    const tabs = [first, await openTab(context, s.url)];
    await expect.poll(() => current(first, 'connection')).toBe('online');

    await s.stop();
    const filesOnly = await serveClientOnly(s.port);
    const texts = Array.from({ length: SIZE.closedTabMessages }, (_, i) => `left in the outbox #${String(i).padStart(2, '0')}`);
    for (const [i, text] of texts.entries()) await sendText(tabs[i % tabs.length]!, conversationId, text);
    await expect.poll(async () => (await current(first, 'outbox')).map((e) => e.text)).toEqual(texts);

    for (const tab of tabs) await tab.close();
    // No engine is left: the SharedWorker ended with its last tab (the fallback's workers with their tabs).
    if (!fallback) await expect.poll(() => runningSharedWorkers(chromium.browser)).toEqual([]);
    await filesOnly.close();
    await s.restart();

    const again = await openTab(context, s.url);
    await expect.poll(async () => (await current(again, 'outbox')).length).toBe(0);
    const onServer = delivery(texts, await storedTexts(s.server.server.ctx.db, conversationId));
    const shown = delivery(texts, await shownTexts(again, conversationId));
    record({
      scenario: `all tabs closed, full outbox (${mode})`,
      faults: tabs.length,
      sent: texts.length,
      lost: Math.max(onServer.lost, shown.lost),
      duplicated: Math.max(onServer.duplicated, shown.duplicated),
    });
    expect(onServer).toEqual({ lost: 0, duplicated: 0, exactlyOnceInOrder: true });
    expect(shown).toEqual({ lost: 0, duplicated: 0, exactlyOnceInOrder: true });
  });
});
