import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { sql } from '../../../server/db/store';
import { nextPhone, startTestServer, useTestServer } from '../../support/server';
import { signIn, until, useEngines } from './support/liveEngines';

const s = useTestServer();
const { startEngine } = useEngines(s);

describe('the engine against the reference server', () => {
  it('signs up, shares a chat, sends once, receives live and reports delivered then read', async () => {
    const annaEngine = await startEngine();
    const erikEngine = await startEngine();
    await signIn(annaEngine, 'Anna');
    const erik = await signIn(erikEngine, 'Erik');
    await until(erikEngine.connection(), (c) => c === 'online');

    const { conversation } = await annaEngine.call('createConversation', {
      members: [{ name: 'Erik', value: erik.phone }],
    });
    await annaEngine.refreshConversations();
    // Erik learns of the chat from the socket, without asking.
    await until(erikEngine.conversations(), (list) => list.some((c) => c.conversation.id === conversation.id));

    erikEngine.setTabState('erik-tab', { visible: true, focused: true, openConversationId: conversation.id });
    await erikEngine.openConversation(conversation.id);
    annaEngine.setTabState('anna-tab', { visible: true, focused: true, openConversationId: conversation.id });
    await annaEngine.openConversation(conversation.id);

    const entry = await annaEngine.sendMessage(conversation.id, { text: 'Hej Erik!' });
    expect(entry.status).toBe('pending');
    const annaView = await until(annaEngine.messages(conversation.id), (w) =>
      w.messages.some((m) => m.message === 'Hej Erik!'),
    );
    await until(annaEngine.outbox(), (o) => o.length === 0);
    expect(annaView.messages.filter((m) => m.message === 'Hej Erik!')).toHaveLength(1);

    const erikView = await until(erikEngine.messages(conversation.id), (w) =>
      w.messages.some((m) => m.message === 'Hej Erik!'),
    );
    const sent = erikView.messages.find((m) => m.message === 'Hej Erik!')!;
    const rows = await s.server.ctx.db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${conversation.id} AND message = ${'Hej Erik!'}`,
    );
    expect(rows?.n).toBe(1);

    // Erik has the chat open: delivered at once, read after 500 ms; each once.
    await expect
      .poll(
        async () =>
          (await s.server.ctx.db.all<{ type: string }>(sql`SELECT type FROM receipts WHERE message_id = ${sent.id} ORDER BY type`)).map(
            (r) => r.type,
          ),
        { timeout: 5000 },
      )
      .toEqual(['delivered', 'read']);
    const annaList = await until(annaEngine.conversations(), (l) => l.some((c) => c.conversation.id === conversation.id));
    expect(annaList[0]?.conversation.id).toBe(conversation.id);
  });

  it('keeps a send typed while the server is down and sends it exactly once when it is back', async () => {
    const storage = new MemoryStorage();
    const own = await startTestServer();
    const port = new URL(own.url).port;
    const engine = await startEngine({ apiBase: own.url, storage });
    await signIn(engine, 'Offline');
    const other = nextPhone();
    const { conversation } = await engine.call('createConversation', { members: [{ name: 'Friend', value: other }] });
    await own.server.close();

    const entry = await engine.sendMessage(conversation.id, { text: 'typed offline' });
    // The first try found no server: the entry stays, pending, waiting for its retry.
    const [tried] = await until(engine.outbox(), (o) => (o[0]?.attempts ?? 0) >= 1);
    expect(tried).toMatchObject({ localId: entry.localId, status: 'pending', error: null });
    expect((await firstValueFrom(engine.outbox())).map((e) => e.localId)).toEqual([entry.localId]);
    // The send is in storage before the network answers: a reload would find it.
    expect(await storage.get('outbox', entry.localId)).toMatchObject({ text: 'typed offline', status: 'pending' });

    const again = await startTestServer({ port: Number(port) }, { keepDataDir: own.dataDir });
    try {
      await until(engine.outbox(), (o) => o.length === 0);
      const n = await again.server.ctx.db.get<{ n: number }>(
        sql`SELECT COUNT(*) AS n FROM messages WHERE message = ${'typed offline'}`,
      );
      expect(n?.n).toBe(1);
    } finally {
      await engine.stop();
      await again.close();
    }
  }, 30_000);

  it('catches up an open chat whose cached window fell behind while the engine was away', async () => {
    const storage = new MemoryStorage();
    const first = await startEngine({ storage });
    await signIn(first, 'Away');
    const friendEngine = await startEngine();
    const friend = await signIn(friendEngine, 'Friend');
    const { conversation } = await first.call('createConversation', { members: [{ name: 'Friend', value: friend.phone }] });
    first.setTabState('t1', { visible: true, focused: true, openConversationId: conversation.id });
    await first.openConversation(conversation.id);
    await first.sendMessage(conversation.id, { text: 'one' });
    await until(first.outbox(), (o) => o.length === 0);
    await first.stop();

    await friendEngine.call('sendMessage', conversation.id, { clientId: 5, message: 'two' });
    const second = await startEngine({ storage });
    second.setTabState('t2', { visible: true, focused: true, openConversationId: conversation.id });
    const view = await until(second.messages(conversation.id), (w) => w.messages.some((m) => m.message === 'two'));
    expect(view.messages.map((m) => m.message)).toEqual(['one', 'two']);
  });

  it('shows the cached list after a restart before the network answers', async () => {
    const storage = new MemoryStorage();
    const own = await startTestServer();
    const first = await startEngine({ apiBase: own.url, storage });
    await signIn(first, 'Cache');
    await first.call('createConversation', { members: [{ name: 'Someone', value: nextPhone() }] });
    await first.refreshConversations();
    await first.stop();
    await own.close();

    const second = await startEngine({ apiBase: own.url, storage });
    const list = await firstValueFrom(second.conversations());
    expect(list).toHaveLength(1);
    expect((await firstValueFrom(second.session())).status).toBe('ready');
  });

  it('signs out on a 401: the session becomes unauthenticated and the stored token is gone, host overrides stay', async () => {
    const storage = new MemoryStorage();
    const engine = await startEngine({ storage });
    await signIn(engine, 'Revoked');
    await engine.setHostOverrides({ apiBase: s.url, wsBase: null });
    await s.server.ctx.db.run(sql`DELETE FROM tokens WHERE user_id = (SELECT id FROM users WHERE nickname = ${'Revoked'})`);
    await expect(engine.refreshConversations()).rejects.toMatchObject({ status: 401 });
    expect((await firstValueFrom(engine.session())).status).toBe('unauthenticated');
    expect(await storage.get('session', 'auth')).toBeUndefined();
    expect(await storage.get('meta', 'hosts')).toEqual({ apiBase: s.url, wsBase: null });
  });

  it('notices a revoked token from the refused websocket alone', async () => {
    const engine = await startEngine();
    await signIn(engine, 'Refused');
    await until(engine.connection(), (c) => c === 'online');
    await s.server.ctx.db.run(sql`DELETE FROM tokens WHERE user_id = (SELECT id FROM users WHERE nickname = ${'Refused'})`);
    // Drop the socket server-side; the reconnect is refused, which makes the engine check its session.
    for (const ws of (s.server.hub as unknown as { byUser: Map<number, Set<{ socket: { terminate(): void } }>> }).byUser.values()) {
      for (const c of ws) c.socket.terminate();
    }
    await until(engine.session(), (v) => v.status === 'unauthenticated');
  }, 15_000);

  it('keeps drafts and the language across a restart; logout drops drafts but keeps the language', async () => {
    const storage = new MemoryStorage();
    const first = await startEngine({ storage });
    await signIn(first, 'Drafter');
    const seen: Record<number, string>[] = [];
    first.drafts().subscribe((d) => seen.push({ ...d }));
    await first.setDraft(12, 'half a thought');
    await first.setDraft(13, '   ');
    await first.setLanguage('sv');
    expect(seen.at(-1)).toEqual({ 12: 'half a thought' });
    await first.stop();

    const second = await startEngine({ storage });
    expect(await firstValueFrom(second.drafts())).toEqual({ 12: 'half a thought' });
    expect(await firstValueFrom(second.language())).toBe('sv');
    await second.setDraft(12, '');
    expect(await firstValueFrom(second.drafts())).toEqual({});
    await second.setDraft(14, 'another');
    await second.logout();
    expect(await firstValueFrom(second.drafts())).toEqual({});
    expect(await storage.getAll('drafts')).toEqual([]);
    expect(await firstValueFrom(second.language())).toBe('sv');
  });

  it('logout clears the session, settings and the countries cache', async () => {
    const storage = new MemoryStorage();
    const engine = await startEngine({ storage });
    await signIn(engine, 'Leaving');
    expect((await engine.loadCountries()).length).toBeGreaterThan(1);
    expect((await firstValueFrom(engine.countries())).status).toBe('loaded');
    await engine.updateSettings({ enterToSend: false });
    await engine.logout();
    expect((await firstValueFrom(engine.session())).status).toBe('unauthenticated');
    expect(await storage.get('countries', 'all')).toBeUndefined();
    expect(await storage.get('settings', 'app')).toBeUndefined();
    expect((await firstValueFrom(engine.settings())).enterToSend).toBe(true);
  });
});
