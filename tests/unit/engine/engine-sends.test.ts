import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { sql } from '../../../server/db/store';
import { insertConversation } from '../../support/fixtures';
import { signUp, useTestServer } from '../../support/server';
import { until, useEngines } from './support/liveEngines';

/** Sends refused and retried, and paging back through a chat, against the reference server. */

const s = useTestServer();
const { signedInEngine } = useEngines(s);

const storedTexts = async (conversationId: number, text: string) =>
  (await s.server.ctx.db.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${conversationId} AND message = ${text}`,
  ))!.n;

describe('a text send the server refuses', () => {
  it('is marked failed with the server’s message, and a retry sends it once with the same client_id', async () => {
    const { engine, userId } = await signedInEngine('Demo');
    const other = await signUp(s.url, 'Guide');
    const demo = await insertConversation(s.server.ctx.db, { members: [userId, other.id], demo: true });
    await engine.refreshConversations();

    const entry = await engine.sendMessage(demo.id, { text: 'hello demo' });
    expect(entry.status).toBe('pending');
    const [failed] = await until(engine.outbox(), (o) => o[0]?.status === 'failed');
    expect(failed).toMatchObject({
      localId: entry.localId,
      status: 'failed',
      error: { name: 'EngineError', status: 403, message: 'This is a demo chat', call: 'sendMessage' },
    });
    expect(await storedTexts(demo.id, 'hello demo')).toBe(0);

    // The chat stops being a demo one: the user's retry goes through, and the message shows once.
    await s.server.ctx.db.run(sql`UPDATE conversations SET is_demo = 0 WHERE id = ${demo.id}`);
    await engine.retrySend(entry.localId);
    await until(engine.outbox(), (o) => o.length === 0);
    expect(await storedTexts(demo.id, 'hello demo')).toBe(1);
    const row = (await s.server.ctx.db.get<{ client_id: number }>(
      sql`SELECT client_id FROM messages WHERE conversation_id = ${demo.id} AND message = ${'hello demo'}`,
    ))!;
    expect(row.client_id).toBe(entry.clientId);
    await engine.openConversation(demo.id);
    const view = await firstValueFrom(engine.messages(demo.id));
    expect(view.messages.filter((m) => m.message === 'hello demo')).toHaveLength(1);
  });
});

describe('older messages', () => {
  it('load 20 at a time before the window, and report false at the start of the chat', async () => {
    const { engine, userId } = await signedInEngine('Pager');
    const other = await signUp(s.url, 'Writer');
    const chat = await insertConversation(s.server.ctx.db, { members: [userId, other.id] });
    for (let i = 1; i <= 45; i++) {
      await engine.call('sendMessage', chat.id, { clientId: i, message: `m${i}` });
    }
    await engine.refreshConversations();
    await engine.openConversation(chat.id);
    const texts = async () => (await firstValueFrom(engine.messages(chat.id))).messages.map((m) => m.message);
    const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);

    expect(await texts()).toEqual(range(26, 45));
    expect(await engine.loadOlderMessages(chat.id)).toBe(true);
    expect(await texts()).toEqual(range(6, 45));
    expect((await firstValueFrom(engine.messages(chat.id))).hasOlder).toBe(true);
    expect(await engine.loadOlderMessages(chat.id)).toBe(true);
    expect(await texts()).toEqual(range(1, 45));
    expect(await engine.loadOlderMessages(chat.id)).toBe(false);
    expect(await texts()).toEqual(range(1, 45));
  });
});
