import { afterAll, beforeAll, expect, it } from 'vitest';
import { signUp } from '../support/server';
import { createChat, current, openTab, sendText, signInAs, signInThrough, useChromium } from '../support/tabs';
import { delivery, shownTexts, storedTexts, worst } from './delivery';
import { SEED, seededRandom, sleep } from './random';
import { KillableServer } from './serverProcess';
import { SIZE } from './size';
import { record } from './tally';

/**
 * Issue 12, item 1: the server is SIGKILLed and started again at random moments while a tab sends through
 * the engine. Afterwards the server holds each message exactly once, in the order sent, and every open tab
 * (two of the sender's profile, sharing its engine, and the friend's, fed by its own socket) shows each
 * exactly once. Each kill comes at a random moment: often right after a send was queued, so the request,
 * the server's commit or its answer is cut, otherwise anywhere in a socket handshake, replay or back-off.
 */

const chromium = useChromium();
let s: KillableServer;
beforeAll(async () => {
  s = await KillableServer.start();
});
afterAll(() => s.dispose());

it(`keeps every message exactly once, in order, through ${SIZE.kills} SIGKILLs of the server`, async () => {
  const random = seededRandom(SEED);
  const senderProfile = await chromium.context();
  const first = await openTab(senderProfile, s.url);
  const friend = await signUp(s.url, 'Friend');
  await signInThrough(first, 'Sender');
  const conversationId = await createChat(first, 'Friend', friend.phone);
  const second = await openTab(senderProfile, s.url);
  const friendTab = await openTab(await chromium.context(), s.url);
  await signInAs(friendTab, friend.phone);
  await friendTab.evaluate(async (id) => {
    await window.engine.refreshConversations();
    await window.engine.openConversation(id);
  }, conversationId);
  const tabs = [first, second, friendTab];
  for (const tab of tabs) await expect.poll(() => current(tab, 'connection')).toBe('online');

  const texts = Array.from({ length: SIZE.killMessages }, (_, i) => `through the kills #${String(i).padStart(3, '0')}`);
  let queued = 0;
  /** Kills that came within 60 ms of a send being queued: its request, commit or answer was likely in flight. */
  let rightAfterSend = 0;
  /** Sends spread over the kills: message i waits for kill i·kills/messages, then a moment more. */
  const sender = (async () => {
    for (const [i, text] of texts.entries()) {
      while (s.kills < Math.floor((i * SIZE.kills) / texts.length)) await sleep(20);
      await sleep(random() * 300);
      await sendText(i % 2 === 0 ? first : second, conversationId, text);
      queued += 1;
    }
  })();
  const killer = (async () => {
    while (s.kills < SIZE.kills) {
      if (random() < 0.5) {
        // Right after a send was queued: the engine's request, the commit or the answer is in flight.
        const before = queued;
        const since = Date.now();
        while (queued === before && Date.now() - since < 3_000) await sleep(5);
        await sleep(random() * 60);
        if (queued !== before) rightAfterSend += 1;
      } else {
        // Anywhere: up long enough, at times, for the socket to come back (3–4 s) and the outbox to drain.
        await sleep(300 + random() * 5_000);
      }
      await s.kill();
      await sleep(random() * 700);
      await s.restart();
    }
  })();
  await Promise.all([sender, killer]);

  // The last restart stands: every send drains and every tab catches up.
  for (const tab of tabs) await expect.poll(() => current(tab, 'connection'), { timeout: 60_000 }).toBe('online');
  await expect.poll(async () => (await current(first, 'outbox')).length, { timeout: 120_000 }).toBe(0);
  const stored = await s.read((db) => storedTexts(db, conversationId));
  const onServer = delivery(texts, stored);
  const shown = [];
  for (const tab of tabs) {
    await expect.poll(async () => (await shownTexts(tab, conversationId)).length, { timeout: 60_000 }).toBeGreaterThanOrEqual(texts.length);
    shown.push(delivery(texts, await shownTexts(tab, conversationId)));
  }
  const all = worst([onServer, ...shown]);
  record({
    scenario: 'server SIGKILLed while sending',
    faults: s.kills,
    sent: texts.length,
    lost: all.lost,
    duplicated: all.duplicated,
    note: `${s.kills} kills at random moments (seed ${SEED}), ${rightAfterSend} of them right after a send; ${tabs.length} tabs checked`,
  });
  expect(s.kills).toBeGreaterThanOrEqual(SIZE.kills);
  expect(onServer).toEqual({ lost: 0, duplicated: 0, exactlyOnceInOrder: true });
  expect(shown).toEqual(tabs.map(() => ({ lost: 0, duplicated: 0, exactlyOnceInOrder: true })));
});
