import { describe, expect, it } from 'vitest';
import { call, signUp, useTestServer } from '../support/server';
import {
  CLIENT_DIR,
  createChat,
  current,
  messageTexts,
  openTab,
  sendText,
  sessionStatus,
  signInThrough,
  storedCount,
  useChromium,
  withoutSharedWorker,
} from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('the leader-election fallback (no SharedWorker)', () => {
  it('gives one websocket for three tabs and survives closing the leader tab', async () => {
    const context = await chromium.context();
    await withoutSharedWorker(context);
    const leader = await openTab(context, s.url);
    expect(await leader.evaluate(() => typeof (window as { SharedWorker?: unknown }).SharedWorker)).toBe('undefined');
    expect(await leader.evaluate(() => window.engine.mode)).toBe('leader-election');
    const friend = await signUp(s.url, 'Friend');
    const me = await signInThrough(leader, 'Leader');
    await expect.poll(() => current(leader, 'connection')).toBe('online');

    const b = await openTab(context, s.url);
    const c = await openTab(context, s.url);
    for (const tab of [b, c]) {
      await expect.poll(() => sessionStatus(tab)).toBe('ready');
      await expect.poll(() => current(tab, 'connection')).toBe('online');
    }
    expect(s.server.hub.connectionCount(me.userId)).toBe(1);

    const conversationId = await createChat(b, 'Friend', friend.phone);
    await sendText(c, conversationId, 'from a follower');
    for (const tab of [leader, b, c]) {
      await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['from a follower']);
    }
    expect(s.server.hub.connectionCount(me.userId)).toBe(1);

    // The leader's tab closes: another tab's worker takes the lock, starts its engine from the shared
    // IndexedDB and connects; the other follower switches to it.
    const closedAt = Date.now();
    await leader.close();
    for (const tab of [b, c]) await expect.poll(() => current(tab, 'connection'), { timeout: 10_000 }).toBe('online');
    await expect.poll(() => s.server.hub.connectionCount(me.userId), { timeout: 10_000 }).toBe(1);
    expect(Date.now() - closedAt).toBeLessThan(5_000);
    // The socket now open is the new leader's: another user's message reaches both remaining tabs live.
    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: 11, message: 'after the leader left' },
    }).then((r) => r.data);
    for (const tab of [b, c]) {
      await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['from a follower', 'after the leader left']);
    }

    // Both remaining tabs can still send, through whichever of them leads now.
    await sendText(b, conversationId, 'from b');
    await sendText(c, conversationId, 'from c');
    for (const tab of [b, c]) {
      await expect
        .poll(() => messageTexts(tab, conversationId))
        .toEqual(['from a follower', 'after the leader left', 'from b', 'from c']);
    }
    expect(await storedCount(s, 'from b')).toBe(1);
    expect(await storedCount(s, 'from c')).toBe(1);
    expect(s.server.hub.connectionCount(me.userId)).toBe(1);
  });
});
