import { existsSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MessagesAnswer, WarningsAnswer } from '../../src/protocol/api';
import type { Message } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { call, type TestUser, useTestServer, useUsers } from '../support/server';
import { actionsOf, conversation, count, received, sent, settle, socket, uploadPng } from './messages-support';

const s = useTestServer();
const [anna, bo, cay, out] = useUsers(s, 'Anna', 'Bo', 'Cay', 'Out');

const del = (user: TestUser, conversationId: number, json: unknown) =>
  call<WarningsAnswer>(s.url, 'POST', `/v2/conversations/${conversationId}/delete/messages`, {
    token: user.token,
    json,
  });
const hide = (user: TestUser, conversationId: number, json: unknown) =>
  call<WarningsAnswer>(s.url, 'POST', `/v2/conversations/${conversationId}/hide_messages`, { token: user.token, json });
const exists = async (id: number) => (await count(s, sql`SELECT COUNT(*) AS n FROM messages WHERE id = ${id}`)) === 1;
/** Deleted for everybody: the row is a tombstone. */
const deleted = async (id: number) =>
  (await count(s, sql`SELECT COUNT(*) AS n FROM messages WHERE id = ${id} AND deleted_at > 0`)) === 1;
const lastMessageId = async (id: number) =>
  (await s.server.ctx.db.get<{ last_message_id: number | null }>(
    sql`SELECT last_message_id FROM conversations WHERE id = ${id}`,
  ))!.last_message_id;
async function visibleTo(user: TestUser, id: number): Promise<number[]> {
  return (await history(user, id)).map((m) => m.id);
}
async function history(user: TestUser, id: number): Promise<Message[]> {
  const r = await call<MessagesAnswer>(s.url, 'GET', `/v2/conversations/${id}/messages`, { token: user.token });
  return r.data.messages;
}

describe('POST /v2/conversations/{id}/delete/messages', () => {
  it('lets the owner delete for everybody in a one-to-one chat, and nobody else', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const first = await sent(s, anna, id, 'first');
    const second = await sent(s, anna, id, 'second');
    await call(s.url, 'POST', `/v2/conversations/${id}/messages/${second}/reactions`, {
      token: bo.token,
      json: { reaction: '👍' },
    });
    await call(s.url, 'POST', `/v1/conversations/${id}/messages/${second}`, {
      token: bo.token,
      form: { read: 'true' },
    });
    const [sa, sb, so] = [await socket(s, anna), await socket(s, bo), await socket(s, out)];

    const refused = await del(bo, id, { message_ids: [second] });
    expect(refused.body).toEqual({ success: false, status: 403, message: 'You can only delete your own messages' });
    expect(await exists(second)).toBe(true);

    const r = await del(anna, id, { message_ids: [second] });
    expect(r.status).toBe(200);
    expect(r.data).toEqual({ message_ids: [second], warnings: [] });
    // A tombstone stays in its place, for both, and is still the chat's latest message.
    expect(await deleted(second)).toBe(true);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM reactions WHERE message_id = ${second}`)).toBe(0);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM receipts WHERE message_id = ${second}`)).toBe(0);
    expect(await lastMessageId(id)).toBe(second);
    expect(await visibleTo(bo, id)).toEqual([first, second]);

    await settle(s, [sa, anna], [sb, bo], [so, out]);
    const stid = expect.stringMatching(/^msg_/);
    for (const sock of [sa, sb]) {
      expect(received(sock, 'conversation_message_delete')).toEqual([
        { conversation_id: id, message_ids: [second], message_stids: [stid], hidden: false },
      ]);
    }
    expect(actionsOf(so)).toEqual([]);

    expect((await del(anna, id, { message_ids: [first] })).status).toBe(200);
    expect(await lastMessageId(id)).toBe(second);
    expect([await deleted(first), await deleted(second)]).toEqual([true, true]);
    for (const sock of [sa, sb, so]) sock.close();
  });

  it("lets group admins delete others' messages and reports what it could not do", async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id] });
    const byBo = await sent(s, bo, id, 'bo');
    const byCay = await sent(s, cay, id, 'cay');
    const byAnna = await sent(s, anna, id, 'anna');

    const mixed = await del(bo, id, { message_ids: [byBo, byCay, byAnna, 999_999, byBo] });
    expect(mixed.data).toEqual({
      message_ids: [byBo],
      warnings: [
        { message_id: byCay, reason: 'You can only delete your own messages' },
        { message_id: byAnna, reason: 'You can only delete your own messages' },
        { message_id: 999_999, reason: 'Message not found' },
      ],
    });
    expect([await deleted(byBo), await deleted(byCay), await deleted(byAnna)]).toEqual([true, false, false]);

    const admin = await del(anna, id, { message_ids: [byCay] });
    expect(admin.data).toEqual({ message_ids: [byCay], warnings: [] });
    expect(await deleted(byCay)).toBe(true);
    expect(await lastMessageId(id)).toBe(byAnna);
  });

  it('refuses system messages, unknown ids and bad bodies without changing anything', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id] });
    const other = await conversation(s, { members: [cay.id, bo.id] });
    const keep = await sent(s, anna, id, 'keep');
    const elsewhere = await sent(s, cay, other, 'elsewhere');
    const system = (await s.server.ctx.db.get<{ id: number }>(
      sql`INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, created_at, updated_at)
          VALUES ('msg_systemdel1', ${id}, ${anna.id}, 'system', '', '{"type":"event"}', 1, 1) RETURNING id`,
    ))!.id;
    expect((await del(anna, id, { message_ids: [system] })).body).toMatchObject({
      status: 403,
      message: 'System messages cannot be deleted',
    });
    expect((await del(anna, id, { message_ids: [999_999, elsewhere] })).body).toEqual({
      success: false,
      status: 404,
      message: 'Message not found',
    });
    const bad: unknown[] = [
      {},
      { message_ids: [] },
      { message_ids: keep },
      { message_ids: ['first'] },
      { message_ids: [0] },
      { message_ids: Array.from({ length: 101 }, (_, i) => i + 1) },
      [keep],
    ];
    for (const json of bad) {
      const r = await del(anna, id, json);
      expect(r.status, JSON.stringify(json).slice(0, 60)).toBe(400);
      expect(r.body.success).toBe(false);
    }
    const malformed = await call(s.url, 'POST', `/v2/conversations/${id}/delete/messages`, {
      token: anna.token,
      body: '{"message_ids": [',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect([await exists(keep), await exists(elsewhere), await exists(system)]).toEqual([true, true, true]);
    expect([await deleted(keep), await deleted(elsewhere), await deleted(system)]).toEqual([false, false, false]);
  });

  it('tells only the sender and admins about a deleted broadcast reply', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id], broadcast: true });
    const post = await sent(s, anna, id, 'news');
    const reply = await sent(s, bo, id, 'reply', { quoted_message_id: post });
    const [sa, sb, sc] = [await socket(s, anna), await socket(s, bo), await socket(s, cay)];
    expect((await del(cay, id, { message_ids: [reply] })).status).toBe(404);
    const r = await del(anna, id, { message_ids: [reply, post] });
    expect(r.data.message_ids).toEqual([reply, post]);
    await settle(s, [sa, anna], [sb, bo], [sc, cay]);
    expect(received(sa, 'conversation_message_delete').map((e) => e.message_ids)).toEqual([[reply, post]]);
    expect(received(sb, 'conversation_message_delete').map((e) => e.message_ids)).toEqual([[reply, post]]);
    expect(received(sc, 'conversation_message_delete').map((e) => e.message_ids)).toEqual([[post]]);
    for (const sock of [sa, sb, sc]) sock.close();
  });
});

describe('attachments of messages deleted for everybody', () => {
  it('removes the file (row and disk) once no remaining message uses it', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const fileId = await uploadPng(s, anna);
    const onDisk = path.join(s.dataDir, 'files', fileId);
    const attachment = { type: 'image', files: [{ id: fileId }] };
    const first = await sent(s, anna, id, 'look', { attachment });
    const second = await sent(s, anna, id, 'again', { attachment });
    const download = async () => {
      const r = await fetch(`${s.url}/files/${fileId}`);
      await r.arrayBuffer();
      return r.status;
    };
    expect(await download()).toBe(200);

    // Still used by the second message: it stays.
    expect((await del(anna, id, { message_ids: [first] })).status).toBe(200);
    expect(await download()).toBe(200);
    expect(existsSync(onDisk)).toBe(true);

    expect((await del(anna, id, { message_ids: [second] })).status).toBe(200);
    expect(await download()).toBe(404);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM files WHERE name = ${fileId}`)).toBe(0);
    expect(existsSync(onDisk)).toBe(false);
  });

  it('answers the delete even when the file is already gone from disk', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const fileId = await uploadPng(s, anna);
    const msg = await sent(s, anna, id, '', { attachment: { type: 'image', files: [{ id: fileId }] } });
    unlinkSync(path.join(s.dataDir, 'files', fileId));
    const r = await del(anna, id, { message_ids: [msg] });
    expect(r.status).toBe(200);
    expect(r.data.message_ids).toEqual([msg]);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM files WHERE name = ${fileId}`)).toBe(0);
  });

  it('keeps the file when the message is only hidden for the caller', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const fileId = await uploadPng(s, anna);
    const msg = await sent(s, anna, id, '', { attachment: { type: 'image', files: [{ id: fileId }] } });
    expect((await hide(anna, id, { message_ids: [msg] })).status).toBe(200);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM files WHERE name = ${fileId}`)).toBe(1);
  });
});

describe('POST /v2/conversations/{id}/hide_messages', () => {
  it('hides messages for the caller alone and tells only the caller', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const mine = await sent(s, bo, id, 'mine');
    const theirs = await sent(s, anna, id, 'theirs');
    const [sa, sb] = [await socket(s, anna), await socket(s, bo)];
    const r = await hide(bo, id, { message_ids: [mine, theirs] });
    expect(r.data).toEqual({ message_ids: [mine, theirs], warnings: [] });
    expect(await visibleTo(bo, id)).toEqual([]);
    expect(await visibleTo(anna, id)).toEqual([mine, theirs]);
    await settle(s, [sa, anna], [sb, bo]);
    expect(received(sb, 'conversation_message_delete')).toEqual([
      {
        conversation_id: id,
        message_ids: [mine, theirs],
        message_stids: [expect.stringMatching(/^msg_/), expect.stringMatching(/^msg_/)],
        hidden: true,
      },
    ]);
    expect(actionsOf(sa)).toEqual([]);
    // Hidden already: nothing left to hide.
    const again = await hide(bo, id, { message_ids: [mine] });
    expect(again.body).toMatchObject({ status: 404, message: 'Message not found' });
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM hidden_messages WHERE user_id = ${bo.id}`)).toBe(2);
    sa.close();
    sb.close();
  });

  it('keeps pinned messages, with a warning', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const pinned = await sent(s, anna, id, 'pinned');
    const plain = await sent(s, anna, id, 'plain');
    await s.server.ctx.db.run(sql`UPDATE messages SET pinned = 1 WHERE id = ${pinned}`);
    const r = await hide(bo, id, { message_ids: [pinned, plain, 999_999] });
    expect(r.data).toEqual({
      message_ids: [plain],
      warnings: [
        { message_id: pinned, reason: 'Delete for me is unavailable for pinned messages' },
        { message_id: 999_999, reason: 'Message not found' },
      ],
    });
    expect((await hide(bo, id, { message_ids: [pinned] })).body).toEqual({
      success: false,
      status: 403,
      message: 'Delete for me is unavailable for pinned messages',
    });
    expect(await visibleTo(bo, id)).toEqual([pinned]);
  });

  it('refuses bad bodies', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'x');
    for (const json of [{}, { message_ids: [] }, { message_ids: 'all' }, { message_ids: [-1] }, null]) {
      expect((await hide(bo, id, json)).status, JSON.stringify(json)).toBe(400);
    }
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM hidden_messages WHERE message_id = ${msg}`)).toBe(0);
  });
});
