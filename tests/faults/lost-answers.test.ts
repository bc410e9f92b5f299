import { afterAll, beforeAll, expect, it } from 'vitest';
import { faultProxy, type FaultProxy } from '../support/faultProxy';
import { signUp, useTestServer } from '../support/server';
import { socketProxy, type SocketProxy } from '../support/socketProxy';
import { CLIENT_DIR, createChat, current, openTab, sendText, signInAs, signInThrough, useChromium } from '../support/tabs';
import { delivery, shownTexts, storedTexts, worst } from './delivery';
import { SIZE } from './size';
import { record } from './tally';

/**
 * Issue 12, item 2: the server commits a send but its answer never reaches the engine (a loopback proxy
 * forwards the request, lets the server answer, and cuts the connection), again and again. The engine
 * retries with the same Idempotency-Key; the server answers the retry with the message it stored: no
 * message is stored or shown twice. The cut comes before any byte of the answer, or after its headers;
 * now and then the retry's answer is cut too. The sender's websocket is held off meanwhile, so its own
 * message's echo cannot settle the send first: every cut is answered by a retry. The friend's tab, with
 * its socket, shows what the server stored.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();
let proxy: FaultProxy;
/** In front of the fault proxy, for the sender's tabs: holds their websocket off. */
let front: SocketProxy;
beforeAll(async () => {
  proxy = await faultProxy(Number(new URL(s.url).port));
  front = await socketProxy(proxy.port);
});
afterAll(async () => {
  await front.close();
  await proxy.close();
});

const SEND = /^\/v2\/conversations\/\d+\/messages$/;

it(`stores and shows a send once when its answer is lost ${SIZE.cutAnswers} times`, async () => {
  const profile = await chromium.context();
  const page = await openTab(profile, front.url);
  const friend = await signUp(s.url, 'Friend');
  await signInThrough(page, 'Unanswered');
  const conversationId = await createChat(page, 'Friend', friend.phone);
  const other = await openTab(profile, front.url);
  const friendTab = await openTab(await chromium.context(), proxy.url);
  await signInAs(friendTab, friend.phone);
  await friendTab.evaluate(async (id) => {
    await window.engine.refreshConversations();
    await window.engine.openConversation(id);
  }, conversationId);
  const tabs = [page, other, friendTab];
  for (const tab of tabs) await expect.poll(() => current(tab, 'connection')).toBe('online');
  front.holdWebsockets(true);

  const texts: string[] = [];
  for (let cut = 0; cut < SIZE.cutAnswers; ) {
    const text = `answer lost #${String(texts.length).padStart(3, '0')}`;
    texts.push(text);
    // Every third send loses the answer of its first retry too.
    const times = Math.min(texts.length % 3 === 0 ? 2 : 1, SIZE.cutAnswers - cut);
    proxy.fail('POST', SEND, { kind: 'loseAnswer', afterHeaders: texts.length % 2 === 0, times });
    const before = proxy.failed.length;
    await sendText(texts.length % 2 === 0 ? page : other, conversationId, text);
    await expect.poll(() => proxy.failed.length - before).toBe(times);
    cut += times;
    // The retry (after the outbox's back-off) is answered with the stored message.
    await expect.poll(async () => (await current(page, 'outbox')).length).toBe(0);
  }

  const onServer = delivery(texts, await storedTexts(s.server.ctx.db, conversationId));
  const shown = [];
  for (const tab of tabs) {
    await expect.poll(async () => (await shownTexts(tab, conversationId)).length).toBeGreaterThanOrEqual(texts.length);
    shown.push(delivery(texts, await shownTexts(tab, conversationId)));
  }
  const all = worst([onServer, ...shown]);
  record({
    scenario: 'answer to a committed send lost',
    faults: proxy.failed.length,
    sent: texts.length,
    lost: all.lost,
    duplicated: all.duplicated,
  });
  expect(proxy.failed.length).toBeGreaterThanOrEqual(SIZE.cutAnswers);
  expect(onServer).toEqual({ lost: 0, duplicated: 0, exactlyOnceInOrder: true });
  expect(shown).toEqual(tabs.map(() => ({ lost: 0, duplicated: 0, exactlyOnceInOrder: true })));
});
