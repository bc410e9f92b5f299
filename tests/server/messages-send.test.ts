import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '../../src/protocol/api';
import type { Comment, Participant } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { insertCommunity } from '../support/fixtures';
import { call, type TestUser, useTestServer, useUsers } from '../support/server';
import { actionsOf, conversation, count, received, send, sent, settle, socket, uploadPng } from './messages-support';

const s = useTestServer();
const [anna, bo, cay, out] = useUsers(s, 'Anna', 'Bo', 'Cay', 'Outsider');

const messagesIn = (id: number) => count(s, sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${id}`);

describe('every message route', () => {
  const routes: [string, string][] = [
    ['GET', '/v2/conversations/1/messages'],
    ['POST', '/v2/conversations/1/messages'],
    ['POST', '/v2/conversations/1/edit_message'],
    ['POST', '/v1/conversations/1/messages/1'],
    ['GET', '/v2/conversations/1/dlrs'],
    ['POST', '/v2/conversations/1/messages/1/reactions'],
    ['DELETE', '/v2/conversations/1/messages/1/reactions'],
    ['POST', '/v2/conversations/1/delete/messages'],
    ['POST', '/v2/conversations/1/hide_messages'],
  ];

  it('answers 401 without a token', async () => {
    for (const [method, path] of routes) {
      const json = method === 'GET' ? undefined : { reaction: '👍' };
      const r = await call(s.url, method, path, json ? { json } : {});
      expect(r.body, `${method} ${path}`).toEqual({ success: false, status: 401, message: 'Unauthorized' });
    }
  });

  it('answers a non-member 404 with no data on every route, for valid bodies', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'private');
    const valid: [string, string, unknown][] = [
      ['GET', `/v2/conversations/${id}/messages`, undefined],
      ['POST', `/v2/conversations/${id}/messages`, { client_id: 1, message: 'hi' }],
      ['POST', `/v2/conversations/${id}/edit_message`, { id: msg, text: 'changed' }],
      ['POST', `/v1/conversations/${id}/messages/${msg}`, { read: 'true' }],
      ['GET', `/v2/conversations/${id}/dlrs`, undefined],
      ['POST', `/v2/conversations/${id}/messages/${msg}/reactions`, { reaction: '👍' }],
      ['DELETE', `/v2/conversations/${id}/messages/${msg}/reactions`, { reaction: '👍' }],
      ['POST', `/v2/conversations/${id}/delete/messages`, { message_ids: [msg] }],
      ['POST', `/v2/conversations/${id}/hide_messages`, { message_ids: [msg] }],
    ];
    for (const [method, path, json] of valid) {
      const r = await call(s.url, method, path, { token: out.token, ...(json ? { json } : {}) });
      expect(r.body, `${method} ${path}`).toEqual({ success: false, status: 404, message: 'Conversation not found' });
      // The same answer as for a conversation that does not exist.
      const missing = await call(s.url, method, path.replace(`/${id}/`, '/999999/'), {
        token: anna.token,
        ...(json ? { json } : {}),
      });
      expect(missing.body, `${method} ${path} (missing)`).toEqual(r.body);
    }
    expect(await messagesIn(id)).toBe(1);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM reactions`)).toBe(0);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM receipts`)).toBe(0);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM hidden_messages`)).toBe(0);
    const stored = await s.server.ctx.db.get(sql`SELECT message, edited_at FROM messages WHERE id = ${msg}`);
    expect(stored).toEqual({ message: 'private', edited_at: 0 });
  });

  it('refuses a malformed conversation id with the spec text', async () => {
    const r = await call(s.url, 'GET', '/v2/conversations/not!an!id/messages', { token: anna.token });
    expect(r.body).toEqual({ success: false, status: 400, message: 'Invalid conversation ID provided' });
  });
});

describe('POST /v2/conversations/{id}/messages', () => {
  it('stores a new message (201) and tells the members, not outsiders', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const [sa, sb, so] = [await socket(s, anna), await socket(s, bo), await socket(s, out)];
    const r = await call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${id}/messages`, {
      token: anna.token,
      json: { client_id: 77, message: '  Hello Bo  ' },
    });
    expect(r.status).toBe(201);
    const m = r.data.message;
    expect(m).toMatchObject({ client_id: 77, message: 'Hello Bo', user_id: anna.id, conversation_id: id });
    expect(m.type).toBe('text');
    expect(m.edited_at).toBe(0);
    expect(m.created_at).toMatch(/^\d+$/);
    expect(await messagesIn(id)).toBe(1);
    await settle(s, [sa, anna], [sb, bo], [so, out]);
    expect(received(sa, 'conversation_message').map((e) => e.message.id)).toEqual([m.id]);
    expect(received(sb, 'conversation_message')).toEqual([{ conversation_id: id, message: m }]);
    expect(actionsOf(so)).toEqual([]);
    for (const sock of [sa, sb, so]) sock.close();
  });

  it('sends an uploaded image as an attachment, and a quoted reply', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const fileId = await uploadPng(s, anna);
    const r = await send(s, anna, id, '', { attachment: { type: 'image', files: [{ id: fileId }] } });
    expect(r.status).toBe(201);
    expect(r.data.message.attachment).toMatchObject({
      type: 'image',
      url: `/files/${fileId}`,
      thumbnail: `/files/${fileId.replace(/\.png$/, '.thumb.webp')}`,
      size: expect.any(Number),
    });
    const reply = await send(s, bo, id, 'nice', { quoted_message_id: r.data.message.id });
    expect(reply.data.message.quoted).toBe(r.data.message.id);

    // Bo cannot send Anna's upload, nor call an image a video.
    const stolen = await send(s, bo, id, '', { attachment: { type: 'image', files: [{ id: fileId }] } });
    expect(stolen.body).toMatchObject({ status: 400, message: 'Unknown attachment file' });
    const mistyped = await send(s, anna, id, '', { attachment: { type: 'video', files: [{ id: fileId }] } });
    expect(mistyped.status).toBe(400);
    expect(await messagesIn(id)).toBe(2);
  });

  it('keeps a retry to one message, and different messages with the same client_id apart', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const post = (json: unknown, headers: Record<string, string> = {}) =>
      call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${id}/messages`, { token: anna.token, json, headers });
    const sb = await socket(s, bo);

    const first = await post({ client_id: 5, message: 'same' });
    const retry = await post({ client_id: 5, message: 'same' });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(200);
    expect(retry.data.message).toEqual(first.data.message);
    expect(await messagesIn(id)).toBe(1);

    const other = await post({ client_id: 5, message: 'different' });
    expect(other.status).toBe(201);
    expect(other.data.message.id).not.toBe(first.data.message.id);
    expect(await messagesIn(id)).toBe(2);

    // With an Idempotency-Key, the key decides: the same text under a new key is a new message...
    const keyed = await post({ client_id: 9, message: 'again' }, { 'Idempotency-Key': 'outbox-1' });
    const keyedRetry = await post({ client_id: 9, message: 'again' }, { 'Idempotency-Key': 'outbox-1' });
    const newKey = await post({ client_id: 9, message: 'again' }, { 'Idempotency-Key': 'outbox-2' });
    expect(keyedRetry.status).toBe(200);
    expect(keyedRetry.data.message.id).toBe(keyed.data.message.id);
    expect(newKey.status).toBe(201);
    expect(newKey.data.message.id).not.toBe(keyed.data.message.id);
    expect(await messagesIn(id)).toBe(4);

    // ...and a retry emits nothing: Bo heard of exactly four messages.
    await settle(s, [sb, bo]);
    expect(received(sb, 'conversation_message')).toHaveLength(4);
    sb.close();
  });

  it('refuses bad bodies with a 4xx and a message, writing nothing', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const bad: [unknown, number][] = [
      [{ message: 'no client id' }, 400],
      [{ client_id: 0, message: 'x' }, 400],
      [{ client_id: 10_001, message: 'x' }, 400],
      [{ client_id: 'abc', message: 'x' }, 400],
      [{ client_id: 1.5, message: 'x' }, 400],
      [{ client_id: 1, message: { text: 'x' } }, 400],
      [{ client_id: 1, message: 'x'.repeat(10_001) }, 400],
      [{ client_id: 1, message: '   ' }, 400],
      [{ client_id: 1 }, 400],
      [{ client_id: 1, attachment: { type: 'image', files: [{ id: 'nope.png' }] } }, 400],
      [{ client_id: 1, attachment: { type: 'image', files: [] } }, 400],
      [{ client_id: 1, attachment: { type: 'file', files: [{ id: 'a' }] } }, 400],
      [{ client_id: 1, attachment: { type: 'image', files: [{ id: 'a' }, { id: 'b' }] } }, 400],
      [{ client_id: 1, attachment: 'image' }, 400],
      [{ client_id: 1, message: 'x', quoted_message_id: 'first' }, 400],
      [{ client_id: 1, message: 'x', quoted_message_id: 999_999 }, 404],
      [[1, 2], 400],
    ];
    for (const [json, status] of bad) {
      const r = await call(s.url, 'POST', `/v2/conversations/${id}/messages`, { token: anna.token, json });
      expect(r.status, JSON.stringify(json).slice(0, 80)).toBe(status);
      expect(r.body.success).toBe(false);
      if (!r.body.success) expect(r.body.message.length).toBeGreaterThan(3);
    }
    const malformed = await call(s.url, 'POST', `/v2/conversations/${id}/messages`, {
      token: anna.token,
      body: '{"client_id": 1, "message": "x"',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.body).toEqual({ success: false, status: 400, message: 'The request body is not valid JSON.' });
    const longKey = await call(s.url, 'POST', `/v2/conversations/${id}/messages`, {
      token: anna.token,
      json: { client_id: 1, message: 'x' },
      headers: { 'Idempotency-Key': 'k'.repeat(101) },
    });
    expect(longKey.body).toMatchObject({ status: 400, message: 'Idempotency-Key must be at most 100 characters' });
    expect(await messagesIn(id)).toBe(0);
  });

  it('refuses a plain message in a broadcast group and shows a reply to the sender and admins only', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id], broadcast: true });
    const [sa, sb, sc] = [await socket(s, anna), await socket(s, bo), await socket(s, cay)];
    const post = await sent(s, anna, id, 'Announcement');
    const plain = await send(s, bo, id, 'can I talk?');
    expect(plain.body).toEqual({
      success: false,
      status: 403,
      message: 'Only broadcasters can send messages in a broadcast group.',
    });
    const reply = await send(s, bo, id, 'a reply', { quoted_message_id: post });
    expect(reply.status).toBe(201);
    expect(reply.data.message.audience).toBe('admins');
    await settle(s, [sa, anna], [sb, bo], [sc, cay]);
    const ids = (sock: typeof sa) => received(sock, 'conversation_message').map((e) => e.message.id);
    expect(ids(sa)).toEqual([post, reply.data.message.id]);
    expect(ids(sb)).toEqual([post, reply.data.message.id]);
    expect(ids(sc)).toEqual([post]);
    const seenBy = async (u: TestUser) =>
      (
        await call<{ messages: { id: number }[] }>(s.url, 'GET', `/v2/conversations/${id}/messages`, { token: u.token })
      ).data.messages.map((m) => m.id);
    expect(await seenBy(cay)).toEqual([post]);
    expect(await seenBy(anna)).toEqual([post, reply.data.message.id]);
    for (const sock of [sa, sb, sc]) sock.close();
  });

  it('refuses every send in a demo chat', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id], demo: true });
    const r = await send(s, anna, id, 'hello?');
    expect(r.body).toEqual({ success: false, status: 403, message: 'This is a demo chat', code: 'demo_chat' });
    expect(await messagesIn(id)).toBe(0);
  });

  it('turns a message with post_id into a comment on that channel post', async () => {
    const community = await insertCommunity(s.server.ctx.db, { name: 'Kampung', ownerId: anna.id, members: [bo.id] });
    const id = await conversation(s, {
      members: [anna.id, bo.id],
      admins: [anna.id],
      isGroup: true,
      groupType: 'channel',
      communityId: community.id,
    });
    const postId = await sent(s, anna, id, 'A post');
    const [sa, so] = [await socket(s, anna), await socket(s, out)];
    const r = await call<{ comment: Comment; participants: Participant[] }>(
      s.url,
      'POST',
      `/v2/conversations/${id}/messages`,
      { token: bo.token, json: { client_id: 3, message: ' First! ', post_id: postId } },
    );
    expect(r.status).toBe(201);
    expect(r.data.comment).toMatchObject({ post_id: postId, user_id: bo.id, message: 'First!' });
    expect(r.data.comment.parent_comment_id).toBeNull();
    expect(r.data.participants).toEqual([{ user_id: bo.id, name: 'Bo', avatar: '' }]);
    expect(await messagesIn(id)).toBe(1);
    expect(await count(s, sql`SELECT comments_count AS n FROM messages WHERE id = ${postId}`)).toBe(1);
    await settle(s, [sa, anna], [so, out]);
    expect(received(sa, 'channel_post_comment_added')[0]).toMatchObject({ post_id: postId, channel_id: id });
    expect(actionsOf(so)).toEqual([]);

    const unknownPost = await send(s, bo, id, 'x', { post_id: 999_999 });
    expect(unknownPost.status).toBe(404);
    const attachment = { type: 'image', files: [{ id: 'a' }] };
    const withFile = await send(s, bo, id, 'x', { post_id: postId, attachment });
    expect(withFile.body).toMatchObject({ status: 400, message: 'A comment cannot carry an attachment' });
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM comments WHERE post_id = ${postId}`)).toBe(1);
    sa.close();
    so.close();
  });

  it('keeps a retried comment (post_id) to one comment, answering 200 and telling nobody', async () => {
    const community = await insertCommunity(s.server.ctx.db, { name: 'Desa', ownerId: anna.id, members: [bo.id] });
    const id = await conversation(s, {
      members: [anna.id, bo.id],
      admins: [anna.id],
      isGroup: true,
      groupType: 'channel',
      communityId: community.id,
    });
    const postId = await sent(s, anna, id, 'A post');
    const sa = await socket(s, anna);
    const comment = (json: Record<string, unknown>, headers: Record<string, string> = {}) =>
      call<{ comment: Comment; participants: Participant[] }>(s.url, 'POST', `/v2/conversations/${id}/messages`, {
        token: bo.token,
        json: { post_id: postId, ...json },
        headers,
      });
    const comments = () => count(s, sql`SELECT COUNT(*) AS n FROM comments WHERE post_id = ${postId}`);

    const first = await comment({ client_id: 7, message: 'Once' });
    const retry = await comment({ client_id: 7, message: 'Once' });
    expect([first.status, retry.status]).toEqual([201, 200]);
    expect(retry.data).toEqual(first.data);
    expect(await comments()).toBe(1);
    // The same client_id with other text is another comment; so is the same text under a new key.
    expect((await comment({ client_id: 7, message: 'Twice' })).status).toBe(201);
    const keyed = await comment({ client_id: 8, message: 'k' }, { 'Idempotency-Key': 'outbox-c1' });
    const keyedRetry = await comment({ client_id: 8, message: 'k' }, { 'Idempotency-Key': 'outbox-c1' });
    const newKey = await comment({ client_id: 8, message: 'k' }, { 'Idempotency-Key': 'outbox-c2' });
    expect([keyed.status, keyedRetry.status, newKey.status]).toEqual([201, 200, 201]);
    expect(keyedRetry.data.comment.comment_id).toBe(keyed.data.comment.comment_id);
    expect(newKey.data.comment.comment_id).not.toBe(keyed.data.comment.comment_id);
    expect(await comments()).toBe(4);
    expect(await count(s, sql`SELECT comments_count AS n FROM messages WHERE id = ${postId}`)).toBe(4);

    await settle(s, [sa, anna]);
    expect(received(sa, 'channel_post_comment_added')).toHaveLength(4);
    sa.close();
  });
});
