import type { Page } from 'playwright';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PING_GRACE_MS } from '../../src/protocol/constants';
import { call, signUp, useTestServer } from '../support/server';
import { socketProxy, type SocketProxy } from '../support/socketProxy';
import { CLIENT_DIR, createChat, current, openTab, sendText, signInThrough, useChromium } from '../support/tabs';
import { delivery, shownTexts, storedTexts, worst } from './delivery';
import { SIZE } from './size';
import { record } from './tally';

/**
 * Issue 12, item 3: a half-open websocket (the proxy stops forwarding without closing either end, and
 * keeps the tab's end open even once the server drops its own) is noticed by the engine within the ping
 * interval + 3 s and replaced by a new one; what was sent meanwhile, by the tab and to it, arrives once.
 */

/** Short, so a stall is noticed in seconds; the server tells the engine in every ping. */
const PING_INTERVAL_MS = 2_000;
/**
 * The engine's watchdog fires within interval + grace of the stall by construction (it runs from the last
 * frame, which came before it); the tab hears of it across the worker's bridge, on a busy machine late.
 */
const BRIDGE_SLACK_MS = 1_000;

const s = useTestServer({ clientDir: CLIENT_DIR, pingIntervalMs: PING_INTERVAL_MS });
const chromium = useChromium();
let proxy: SocketProxy;
beforeAll(async () => {
  proxy = await socketProxy(Number(new URL(s.url).port));
});
afterAll(() => proxy.close());

/** Records in the tab every state its engine's connection goes through, with the time (same clock as the test's). */
const logConnection = (page: Page) =>
  page.evaluate(() => {
    const log: { state: string; at: number }[] = [];
    Object.assign(window, { connectionLog: log });
    window.engine.connection().subscribe((state) => log.push({ state, at: Date.now() }));
  });
/** When the tab first saw a connection state that passes `test` (polled until it has). */
async function seen(page: Page, test: (entry: { state: string; at: number }) => boolean): Promise<number> {
  let at: number | undefined;
  const read = () => page.evaluate(() => (window as unknown as { connectionLog: { state: string; at: number }[] }).connectionLog);
  await expect.poll(async () => (at = (await read()).find(test)?.at), { timeout: 30_000 }).toBeDefined();
  return at as number;
}

it(`notices a half-open socket within ping + ${PING_GRACE_MS / 1000} s, replaces it, and loses nothing sent meanwhile`, async () => {
  const page = await openTab(await chromium.context(), proxy.url);
  const friend = await signUp(s.url, 'Friend');
  await signInThrough(page, 'Stalled');
  const conversationId = await createChat(page, 'Friend', friend.phone);
  await expect.poll(() => current(page, 'connection')).toBe('online');
  await logConnection(page);

  const texts: string[] = [];
  const noticed: number[] = [];
  const replaced: number[] = [];
  for (let stall = 0; stall < SIZE.stalls; stall++) {
    const opened = proxy.websocketsOpened;
    // A ping has come since the last (re)connect: the engine knows the interval from the server.
    await new Promise((resolve) => setTimeout(resolve, PING_INTERVAL_MS + 200));
    const stalledAt = Date.now();
    expect(proxy.stallWebsockets()).toBe(1);

    // Sent while the socket is dead but not closed: one to the tab (a live event it cannot hear), one by it.
    const fromFriend = `to the stalled tab #${stall}`;
    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: stall + 1, message: fromFriend },
    }).then((r) => r.data);
    const fromMe = `from the stalled tab #${stall}`;
    await sendText(page, conversationId, fromMe);
    texts.push(fromFriend, fromMe);

    const closedAt = await seen(page, (e) => e.at >= stalledAt && e.state !== 'online');
    noticed.push(closedAt - stalledAt);
    const onlineAt = await seen(page, (e) => e.at > closedAt && e.state === 'online');
    replaced.push(onlineAt - stalledAt);
    expect(proxy.websocketsOpened).toBe(opened + 1);
    await expect.poll(() => shownTexts(page, conversationId)).toEqual(texts);
  }

  const onServer = delivery(texts, await storedTexts(s.server.ctx.db, conversationId));
  const shown = delivery(texts, await shownTexts(page, conversationId));
  const all = worst([onServer, shown]);
  record({
    scenario: 'half-open websocket',
    faults: SIZE.stalls,
    sent: texts.length,
    lost: all.lost,
    duplicated: all.duplicated,
    note: `ping ${PING_INTERVAL_MS / 1000} s: noticed after ${noticed.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s, online again after ${replaced.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s`,
  });
  for (const ms of noticed) expect(ms).toBeLessThanOrEqual(PING_INTERVAL_MS + PING_GRACE_MS + BRIDGE_SLACK_MS);
  expect(onServer).toEqual({ lost: 0, duplicated: 0, exactlyOnceInOrder: true });
  expect(shown).toEqual({ lost: 0, duplicated: 0, exactlyOnceInOrder: true });
});
