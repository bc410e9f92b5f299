import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { call, signUp, useTestServer } from '../support/server';
import { socketProxy, type SocketProxy } from '../support/socketProxy';
import { CLIENT_DIR, current, ENGINE_MODES, engineProfile, messageTexts, openTab, signInThrough, useChromium } from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();
let proxy: SocketProxy;
beforeAll(async () => {
  proxy = await socketProxy(Number(new URL(s.url).port));
});
afterAll(() => proxy.close());

const eventPosition = async (userId: number): Promise<number> =>
  (await s.server.ctx.db.get<{ n: number }>(sql`SELECT seq AS n FROM event_counters WHERE user_id = ${userId}`))!.n;

describe.each(ENGINE_MODES)('a first connection’s gap (%s)', (_mode, fallback) => {
  it('a message sent while the socket of a freshly signed-in engine was down shows once it is back, once', async () => {
    const context = await engineProfile(chromium, fallback);
    const page = await openTab(context, proxy.url);
    const me = await signInThrough(page, 'Newcomer');
    await expect.poll(() => current(page, 'connection')).toBe('online');
    await expect.poll(() => proxy.websocketCount).toBe(1);
    // No event has reached this user yet: the server told the engine position 0.
    expect(await eventPosition(me.userId)).toBe(0);

    proxy.holdWebsockets(true);
    await expect.poll(() => current(page, 'connection')).not.toBe('online');
    const friend = await signUp(s.url, 'Friend');
    const { conversation } = await call<{ conversation: { id: number } }>(s.url, 'POST', '/v2/conversations', {
      token: friend.token,
      form: { 'member[0][name]': 'Newcomer', 'member[0][type]': 'phone_nr', 'member[0][value]': me.phone },
    }).then((r) => r.data);
    await call(s.url, 'POST', `/v2/conversations/${conversation.id}/messages`, {
      token: friend.token,
      json: { client_id: 5, message: 'sent while you were away' },
    }).then((r) => r.data);
    expect(await eventPosition(me.userId)).toBeGreaterThan(0);

    proxy.holdWebsockets(false);
    await expect.poll(() => current(page, 'connection')).toBe('online');
    // The chat and its message arrive without a reload, and the message is there once.
    await expect
      .poll(async () => (await current(page, 'conversations')).map((c) => [c.conversation.id, c.preview?.text]))
      .toEqual([[conversation.id, 'sent while you were away']]);
    await page.evaluate((id) => window.engine.openConversation(id), conversation.id);
    await expect.poll(() => messageTexts(page, conversation.id)).toEqual(['sent while you were away']);
    expect(proxy.websocketCount).toBe(1);
  });
});
