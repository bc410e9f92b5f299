import { describe, expect, it } from 'vitest';
import type { ConversationAnswer, MessagesAnswer, WarningsAnswer } from '../../src/protocol/api';
import type { Message } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { call, type TestUser, useTestServer, useUsers } from '../support/server';
import { count, conversation, send, sent } from './messages-support';

/** Delete for everybody leaves a tombstone (docs/server.md "Delete for everybody"). */

const s = useTestServer();
const [anna, bo] = useUsers(s, 'Anna', 'Bo');

const del = (user: TestUser, conversationId: number, ids: number[]) =>
  call<WarningsAnswer>(s.url, 'POST', `/v2/conversations/${conversationId}/delete/messages`, {
    token: user.token,
    json: { message_ids: ids },
  });
async function history(user: TestUser, id: number): Promise<Message[]> {
  const r = await call<MessagesAnswer>(s.url, 'GET', `/v2/conversations/${id}/messages`, { token: user.token });
  return r.data.messages;
}
async function chat(user: TestUser, id: number) {
  return (await call<ConversationAnswer>(s.url, 'GET', `/v2/conversations/${id}`, { token: user.token })).data.conversation;
}

describe('a message deleted for everybody', () => {
  it('stays in history, the chat and a fresh load as a tombstone: its id, sender and time, nothing it said', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const first = await sent(s, bo, id, 'hello');
    const original = (await send(s, anna, id, 'the secret plan', { quoted_message_id: first })).data.message;
    const reply = await sent(s, bo, id, 'what plan?', { quoted_message_id: original.id });
    await call(s.url, 'POST', `/v2/conversations/${id}/messages/${original.id}/reactions`, {
      token: bo.token,
      json: { reaction: '😮' },
    });

    expect((await del(anna, id, [original.id])).data).toEqual({ message_ids: [original.id], warnings: [] });

    const tombstone = {
      id: original.id,
      stid: original.stid,
      client_id: original.client_id,
      conversation_id: id,
      conversation_stid: original.conversation_stid,
      user_id: anna.id,
      message: '',
      rich_message: null,
      type: 'text',
      created_at: original.created_at,
      edited_at: 0,
      updated_at: expect.any(Number),
      attachment: null,
      reactions: [],
      quoted: null,
      discussion: null,
      pinned: false,
      deleted: true,
    };
    for (const user of [anna, bo]) {
      const messages = await history(user, id);
      expect(messages.map((m) => m.id)).toEqual([first, original.id, reply]);
      expect(messages[1]).toEqual(tombstone);
      // The reply still names what it quoted, which is now the tombstone.
      expect(messages[2]).toMatchObject({ id: reply, quoted: original.id, message: 'what plan?' });
      expect(messages[0]).not.toHaveProperty('deleted');
      expect((await chat(user, id)).messages[1]).toEqual(tombstone);
    }
    // Nothing it said is kept: not the text, not a hash of it.
    const row = await s.server.ctx.db.get<{ message: string; attachment: string | null; quoted_id: number | null; fingerprint: string | null }>(
      sql`SELECT message, attachment, quoted_id, fingerprint FROM messages WHERE id = ${original.id}`,
    );
    expect(row).toEqual({ message: '', attachment: null, quoted_id: null, fingerprint: null });
  });

  it('is the chat’s last message when it was the latest, and does not count as unread', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    await sent(s, anna, id, 'one');
    const latest = await sent(s, anna, id, 'two');
    expect((await chat(bo, id)).unread_message_count).toBe(2);
    await del(anna, id, [latest]);
    const seen = await chat(bo, id);
    expect(seen.last_message).toMatchObject({ id: latest, message: '', deleted: true });
    expect(seen.unread_message_count).toBe(1);
    // Reading the chat reads up to its tombstone.
    const read = await call(s.url, 'POST', `/v1/conversations/${id}/messages/${latest}`, { token: bo.token, form: { read: 'true' } });
    expect(read.status).toBe(200);
    expect((await chat(bo, id)).unread_message_count).toBe(0);
  });

  it('cannot be edited, reacted to, replied to or deleted again; delete for me still removes it', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'soon gone');
    await del(anna, id, [msg]);
    const notFound = { success: false, status: 404, message: 'Message not found' };
    const edit = await call(s.url, 'POST', `/v2/conversations/${id}/edit_message`, {
      token: anna.token,
      json: { id: msg, text: 'back again' },
    });
    expect(edit.body).toEqual(notFound);
    const react = await call(s.url, 'POST', `/v2/conversations/${id}/messages/${msg}/reactions`, {
      token: bo.token,
      json: { reaction: '👍' },
    });
    expect(react.body).toEqual(notFound);
    expect((await send(s, bo, id, 'replying', { quoted_message_id: msg })).body).toEqual(notFound);
    expect((await del(anna, id, [msg])).body).toEqual(notFound);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM reactions WHERE message_id = ${msg}`)).toBe(0);

    const hidden = await call<WarningsAnswer>(s.url, 'POST', `/v2/conversations/${id}/hide_messages`, {
      token: bo.token,
      json: { message_ids: [msg] },
    });
    expect(hidden.data).toEqual({ message_ids: [msg], warnings: [] });
    expect((await history(bo, id)).map((m) => m.id)).toEqual([]);
    expect((await history(anna, id)).map((m) => m.id)).toEqual([msg]);
  });

  it('takes a channel post’s comments with it', async () => {
    const channel = await conversation(s, { members: [anna.id, bo.id], isGroup: true, groupType: 'channel', admins: [anna.id] });
    const { db } = s.server.ctx;
    const now = s.server.ctx.clock.now();
    const post = (await db.get<{ id: number }>(
      sql`INSERT INTO messages (stid, conversation_id, user_id, message, comments_count, created_at, updated_at)
          VALUES ('msg_tombstonepost', ${channel}, ${anna.id}, 'a post', 1, ${now}, ${now}) RETURNING id`,
    ))!.id;
    await db.run(
      sql`INSERT INTO comments (channel_id, post_id, user_id, message, created_at)
          VALUES (${channel}, ${post}, ${bo.id}, 'a comment', ${now})`,
    );
    expect((await del(anna, channel, [post])).status).toBe(200);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM comments WHERE post_id = ${post}`)).toBe(0);
    expect((await history(bo, channel))[0]).toMatchObject({ id: post, deleted: true, discussion: { comments_count: 0 } });
  });
});
