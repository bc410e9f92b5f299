import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '../../src/protocol/api';
import { EDIT_WINDOW_MS } from '../../src/protocol/constants';
import { ManualClock } from '../../server/clock';
import { sql } from '../../server/db/store';
import { call, type TestUser, useTestServer, useUsers } from '../support/server';
import { actionsOf, conversation, received, sent, settle, socket } from './messages-support';

const clock = new ManualClock();
const s = useTestServer({}, { clock });
const [anna, bo, cay, out] = useUsers(s, 'Anna', 'Bo', 'Cay', 'Out');

const edit = (user: TestUser, conversationId: number, json: unknown) =>
  call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${conversationId}/edit_message`, { token: user.token, json });
const stored = async (id: number) =>
  (await s.server.ctx.db.get<{ message: string; edited_at: number; updated_at: number }>(
    sql`SELECT message, edited_at, updated_at FROM messages WHERE id = ${id}`,
  ))!;

describe('POST /v2/conversations/{id}/edit_message', () => {
  it("edits the owner's message, marks it edited and tells members only", async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'helo');
    const [sb, so] = [await socket(s, bo), await socket(s, out)];
    clock.advance(60_000);
    const r = await edit(anna, id, { id: msg, text: '  hello  ' });
    expect(r.status).toBe(200);
    expect(r.data.message).toMatchObject({ id: msg, message: 'hello', edited_at: Math.floor(clock.now() / 1000) });
    expect(await stored(msg)).toEqual({ message: 'hello', edited_at: clock.now(), updated_at: clock.now() });
    await settle(s, [sb, bo], [so, out]);
    expect(received(sb, 'conversation_message_edited')).toEqual([{ conversation_id: id, message: r.data.message }]);
    expect(actionsOf(so)).toEqual([]);
    sb.close();
    so.close();
  });

  it('refuses other people’s messages, and messages older than 45 minutes', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'original');
    expect((await edit(bo, id, { id: msg, text: 'hijack' })).body).toEqual({
      success: false,
      status: 403,
      message: 'You can only edit your own messages',
    });
    clock.advance(EDIT_WINDOW_MS);
    expect((await edit(anna, id, { id: msg, text: 'just in time' })).status).toBe(200);
    clock.advance(1);
    expect((await edit(anna, id, { id: msg, text: 'too late' })).body).toEqual({
      success: false,
      status: 403,
      message: 'This message is too old to edit',
    });
    expect((await stored(msg)).message).toBe('just in time');
  });

  it('refuses bad input and writes nothing', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const other = await conversation(s, { members: [bo.id, cay.id] });
    const msg = await sent(s, anna, id, 'keep me');
    const elsewhere = await sent(s, bo, other, 'not in this chat');
    const cases: [unknown, number][] = [
      [{ id: msg, text: '   ' }, 400],
      [{ id: msg, text: 'x'.repeat(10_001) }, 400],
      [{ id: msg }, 400],
      [{ text: 'no id' }, 400],
      [{ id: 'first', text: 'x' }, 400],
      [{ id: msg, text: { value: 'x' } }, 400],
      [{ id: 999_999, text: 'x' }, 404],
      [{ id: elsewhere, text: 'x' }, 404],
      ['just a string', 400],
    ];
    for (const [json, status] of cases) {
      const r = await edit(anna, id, json);
      expect(r.status, JSON.stringify(json).slice(0, 60)).toBe(status);
      expect(r.body.success).toBe(false);
    }
    const malformed = await call(s.url, 'POST', `/v2/conversations/${id}/edit_message`, {
      token: anna.token,
      body: '{"id":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await stored(msg)).toMatchObject({ message: 'keep me', edited_at: 0 });
    expect(await stored(elsewhere)).toMatchObject({ message: 'not in this chat', edited_at: 0 });
  });

  it('refuses system messages', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id] });
    const row = (await s.server.ctx.db.get<{ id: number }>(
      sql`INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, created_at, updated_at)
          VALUES ('msg_systemtest1', ${id}, ${anna.id}, 'system', '', '{"type":"event"}', ${clock.now()}, ${clock.now()})
          RETURNING id`,
    ))!;
    const r = await edit(anna, id, { id: row.id, text: 'rewrite history' });
    expect(r.body).toMatchObject({ status: 403, message: 'System messages cannot be edited' });
  });

  it("tells only the sender and admins about an edited broadcast reply", async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id], broadcast: true });
    const post = await sent(s, anna, id, 'news');
    const reply = await sent(s, bo, id, 'thanks', { quoted_message_id: post });
    const [sa, sc] = [await socket(s, anna), await socket(s, cay)];
    expect((await edit(bo, id, { id: reply, text: 'thank you' })).status).toBe(200);
    await settle(s, [sa, anna], [sc, cay]);
    expect(received(sa, 'conversation_message_edited').map((e) => e.message.message)).toEqual(['thank you']);
    expect(actionsOf(sc)).toEqual([]);
    // Cay cannot even find it to edit.
    expect((await edit(cay, id, { id: reply, text: 'x' })).status).toBe(404);
    sa.close();
    sc.close();
  });
});
