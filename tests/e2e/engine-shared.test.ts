import { describe, expect, it } from 'vitest';
import { HEARTBEAT_INTERVAL_MS, SILENT_AFTER_MS } from '../../src/worker/liveness';
import { sql } from '../../server/db/store';
import { call, signUp, useTestServer } from '../support/server';
import {
  CLIENT_DIR,
  createChat,
  current,
  messageTexts,
  closeSilently,
  openTab,
  sendText,
  sessionStatus,
  signedInWithFriend,
  signInThrough,
  storedCount,
  useChromium,
} from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('one engine for every tab (SharedWorker)', () => {
  it('three tabs share one engine and one websocket; a message sent in one tab appears in the others', async () => {
    const context = await chromium.context();
    const tabs = [
      await openTab(context, s.url),
      await openTab(context, s.url),
      await openTab(context, s.url),
    ];
    const [a, b, c] = tabs as [(typeof tabs)[0], (typeof tabs)[0], (typeof tabs)[0]];
    expect(await a.evaluate(() => window.engine.mode)).toBe('shared-worker');

    const friend = await signUp(s.url, 'Friend');
    const me = await signInThrough(a, 'Tabby');
    // Signed in once, in one tab: every tab has the session, because there is one engine.
    for (const tab of tabs) await expect.poll(() => sessionStatus(tab)).toBe('ready');
    for (const tab of tabs) await expect.poll(() => current(tab, 'connection')).toBe('online');
    expect(s.server.hub.connectionCount(me.userId)).toBe(1);

    const conversationId = await createChat(b, 'Friend', friend.phone);
    for (const tab of tabs) {
      await expect
        .poll(async () => (await current(tab, 'conversations')).map((c) => c.conversation.id))
        .toEqual([conversationId]);
    }

    await sendText(c, conversationId, 'sent from the third tab');
    for (const tab of tabs) {
      await expect.poll(() => messageTexts(tab, conversationId)).toEqual(['sent from the third tab']);
    }
    await expect.poll(async () => (await current(a, 'outbox')).length).toBe(0);
    expect(await storedCount(s, 'sent from the third tab')).toBe(1);

    // Another user's message reaches every tab live, through the one socket.
    await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token: friend.token,
      json: { client_id: 7, message: 'hello from a friend' },
    }).then((r) => r.data);
    for (const tab of tabs) {
      await expect
        .poll(() => messageTexts(tab, conversationId))
        .toEqual(['sent from the third tab', 'hello from a friend']);
    }
    expect(s.server.hub.connectionCount(me.userId)).toBe(1);

    // A fourth tab joins the same engine; closing tabs leaves the socket to the others.
    const d = await openTab(context, s.url);
    expect(await messageTexts(d, conversationId)).toEqual(['sent from the third tab', 'hello from a friend']);
    await a.close();
    await b.close();
    await sendText(c, conversationId, 'after two tabs closed');
    await expect.poll(() => messageTexts(d, conversationId)).toContain('after two tabs closed');
    expect(s.server.hub.connectionCount(me.userId)).toBe(1);
  });

  it('forgets a tab that died without a word (the heartbeat drops its port)', async () => {
    const context = await chromium.context();
    const doomed = await openTab(context, s.url);
    const survivor = await openTab(context, s.url);
    const { friend, conversationId } = await signedInWithFriend(survivor, s.url, 'Survivor');
    // The chat is open in the doomed tab: the engine counts it as in view, so new messages are read at once.
    await doomed.evaluate((id) => window.engine.setOpenConversation(id), conversationId);
    const friendSends = (text: string) =>
      call<{ message: { id: number } }>(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
        token: friend.token,
        json: { client_id: 3, message: text },
      }).then((r) => r.data.message.id);
    const receipts = async (messageId: number) =>
      (await s.server.ctx.db.all<{ type: string }>(sql`SELECT type FROM receipts WHERE message_id = ${messageId} ORDER BY type`)).map(
        (r) => r.type,
      );
    const unread = async () => (await current(survivor, 'conversation', conversationId))?.unreadCount;

    const seen = await friendSends('while the tab lives');
    await expect.poll(() => receipts(seen)).toEqual(['delivered', 'read']);
    expect(await unread()).toBe(0);

    // It dies without a word: no pagehide reaches the engine, only the missing heartbeat (and the freed
    // tab lock) tell. Until the engine notices, the dead tab's chat still counts as open. (Crashing the
    // renderer would also do, but it takes the SharedWorker with it when both share a process.)
    await closeSilently(doomed);
    const stillInView = await friendSends('just after the tab died');
    await expect.poll(() => receipts(stillInView)).toEqual(['delivered', 'read']);
    expect(await unread()).toBe(0);
    await new Promise((r) => setTimeout(r, SILENT_AFTER_MS + 2 * HEARTBEAT_INTERVAL_MS));

    const unseen = await friendSends('after the tab died');
    await expect.poll(() => unread()).toBe(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await receipts(unseen)).not.toContain('read');
  }, 60_000);

  it('a 401 signs every tab out', async () => {
    const context = await chromium.context();
    const tabs = [await openTab(context, s.url), await openTab(context, s.url), await openTab(context, s.url)];
    const me = await signInThrough(tabs[0]!, 'Revoked');
    for (const tab of tabs) await expect.poll(() => sessionStatus(tab)).toBe('ready');
    await expect.poll(() => s.server.hub.connectionCount(me.userId)).toBe(1);

    await s.server.ctx.db.run(sql`DELETE FROM tokens WHERE user_id = ${me.userId}`);
    const refused = await tabs[1]!.evaluate(() =>
      window.engine.refreshConversations().then(
        () => null,
        (e: unknown) => e as { status: number },
      ),
    );
    expect(refused?.status).toBe(401);
    for (const tab of tabs) await expect.poll(() => sessionStatus(tab)).toBe('unauthenticated');
    for (const tab of tabs) await expect.poll(() => current(tab, 'connection')).toBe('closed');
    await expect.poll(() => s.server.hub.connectionCount(me.userId)).toBe(0);
  });
  it("starts the engine worker from the page's first script, and the app's first connection uses that worker", async () => {
    const context = await chromium.context();
    const page = await context.newPage();
    // Every SharedWorker the page makes, and when the app's engine client appeared (window.engine).
    await page.addInitScript(() => {
      const made: { at: number; name: string }[] = [];
      const Original = window.SharedWorker;
      window.SharedWorker = class extends Original {
        constructor(url: string | URL, options?: string | WorkerOptions) {
          super(url, options);
          made.push({ at: performance.now(), name: typeof options === 'string' ? options : (options?.name ?? '') });
        }
      };
      let engine: unknown;
      const marks = { made, engineAt: Number.NaN, earlyAt: Number.NaN };
      Object.assign(window, { __early: marks });
      // Where the first script leaves its worker for the app (src/worker/earlyWorker.ts).
      let early: unknown;
      Object.defineProperty(window, '__messengerEarlyEngineWorker', {
        configurable: true,
        get: () => early,
        set: (value: unknown) => {
          early = value;
          marks.earlyAt = performance.now();
        },
      });
      Object.defineProperty(window, 'engine', {
        configurable: true,
        get: () => engine,
        set: (value: unknown) => {
          engine = value;
          marks.engineAt = performance.now();
        },
      });
    });
    await page.goto(s.url);
    expect(await sessionStatus(page)).toBe('unauthenticated');
    const { made, engineAt, earlyAt } = await page.evaluate(
      () => (window as unknown as { __early: { made: { at: number; name: string }[]; engineAt: number; earlyAt: number } }).__early,
    );
    // One worker object, left by the first script before the app's engine client existed, and taken by it.
    expect(made.map((m) => m.name)).toEqual(['messenger-engine']);
    expect(earlyAt).toBeLessThan(engineAt);
    expect(await page.evaluate(() => '__messengerEarlyEngineWorker' in window)).toBe(false);
    await page.close();
  });
});
