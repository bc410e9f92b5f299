import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelAnswer, CommunityAnswer, PostsAnswer } from '../../src/protocol/api';
import type { Message } from '../../src/protocol/entities';
import { list, sql } from '../../server/db/store';
import { insertConversation } from '../support/fixtures';
import { call, startTestServer, type TestServer, TestSocket } from '../support/server';
import { makeWorld, post } from './communities-support';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex');

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const isMember = async (channelId: number, userId: number) =>
  (await s.server.ctx.db.get(
    sql`SELECT 1 FROM conversation_members WHERE conversation_id = ${channelId} AND user_id = ${userId}`,
  )) !== undefined;

describe('channel details, join and leave', () => {
  it('shows a channel of a visible community by id or stid, and nothing else', async () => {
    const w = await makeWorld(s, 'info');
    const mine = await call<ChannelAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}`, { token: w.member.token });
    expect(mine.data.channel).toMatchObject({
      id: w.general.id,
      stid: w.general.stid,
      name: 'General',
      community_id: w.community.id,
      members_count: 3,
      is_member: true,
      is_community_announcements: false,
      logo: null,
    });
    const browsing = await call<ChannelAnswer>(s.url, 'GET', `/v1/channels/${w.announcements.stid}`, {
      token: w.outsider.token,
    });
    expect(browsing.data.channel).toMatchObject({
      id: w.announcements.id,
      is_member: false,
      is_community_announcements: true,
    });

    const notFound = { success: false, status: 404, message: 'No channel data available' };
    expect((await call(s.url, 'GET', '/v1/channels/999999', { token: w.member.token })).body).toEqual(notFound);
    expect((await call(s.url, 'GET', `/v1/channels/${w.secretAnnouncements.id}`, { token: w.member.token })).body).toEqual(
      notFound,
    );
    // An ordinary group is not a channel, even for its members.
    const group = await insertConversation(s.server.ctx.db, { members: [w.member.id, w.owner.id, w.admin.id], name: 'Group' });
    expect((await call(s.url, 'GET', `/v1/channels/${group.id}`, { token: w.member.token })).body).toEqual(notFound);
    expect((await call(s.url, 'GET', '/v1/channels/x%20y', { token: w.member.token })).body).toEqual({
      success: false,
      status: 400,
      message: 'Invalid parameters provided',
    });
  });

  it('lets community members join a channel and tells only the joiner', async () => {
    const w = await makeWorld(s, 'cjoin');
    const refused = await call(s.url, 'POST', `/v1/channels/${w.general.id}/join`, { token: w.outsider.token });
    expect(refused.body).toEqual({
      success: false,
      status: 403,
      message: 'Join the community before joining its channels',
    });
    expect(await isMember(w.general.id, w.outsider.id)).toBe(false);

    await call(s.url, 'POST', `/v1/communities/${w.community.id}/join`, { token: w.outsider.token }).then((r) => r.data);
    const joiner = new TestSocket(s.url, w.outsider.token);
    const other = new TestSocket(s.url, w.member.token);
    await Promise.all([joiner.loaded(), other.loaded()]);
    const joined = await call<ChannelAnswer>(s.url, 'POST', `/v1/channels/${w.general.stid}/join`, {
      token: w.outsider.token,
    });
    expect(joined.data.channel).toMatchObject({ id: w.general.id, is_member: true, members_count: 4 });
    const frame = await joiner.next((f) => f.action === 'inbox_channel_added');
    expect(frame).toMatchObject({ data: { conversation_id: w.general.id, community_id: w.community.id } });
    expect(other.actions()).toEqual([]);
    // The chats list names the channel's community (two communities' channels may share a name).
    type ListAnswer = { conversations: { conversation: { id: number; community_name: string | null } }[] };
    const list = await call<ListAnswer>(s.url, 'GET', '/v2/conversations', { token: w.outsider.token }).then((r) => r.data);
    const listed = list.conversations.find((c) => c.conversation.id === w.general.id)?.conversation;
    expect(listed?.community_name).toBe('Jakarta Makers cjoin');
    const single = await call<{ conversation: { community_name: string | null } }>(s.url, 'GET', `/v2/conversations/${w.general.id}`, {
      token: w.outsider.token,
    }).then((r) => r.data);
    expect(single.conversation.community_name).toBe('Jakarta Makers cjoin');
    joiner.close();
    other.close();
  });

  it('makes a community admin a channel admin when they join', async () => {
    const w = await makeWorld(s, 'cadm');
    await call(s.url, 'POST', `/v1/channels/${w.general.id}/leave`, { token: w.admin.token }).then((r) => r.data);
    expect(await isMember(w.general.id, w.admin.id)).toBe(false);
    await call(s.url, 'POST', `/v1/channels/${w.general.id}/join`, { token: w.admin.token }).then((r) => r.data);
    const row = await s.server.ctx.db.get(
      sql`SELECT is_admin, can_create_posts FROM conversation_members WHERE conversation_id = ${w.general.id} AND user_id = ${w.admin.id}`,
    );
    expect(row).toEqual({ is_admin: 1, can_create_posts: 1 });
  });

  it('leaves a channel, telling the leaver and the remaining members only', async () => {
    const w = await makeWorld(s, 'cleave');
    const leaver = new TestSocket(s.url, w.member.token);
    const stayer = new TestSocket(s.url, w.admin.token);
    const outsider = new TestSocket(s.url, w.outsider.token);
    await Promise.all([leaver.loaded(), stayer.loaded(), outsider.loaded()]);
    const left = await call<ChannelAnswer>(s.url, 'POST', `/v1/channels/${w.general.id}/leave`, { token: w.member.token });
    expect(left.data.channel).toMatchObject({ is_member: false, members_count: 2 });
    const expected = { action: 'conversation_removed_user', data: { conversation_id: w.general.id, user_id: w.member.id } };
    expect(await leaver.next((f) => f.action === 'conversation_removed_user')).toMatchObject(expected);
    expect(await stayer.next((f) => f.action === 'conversation_removed_user')).toMatchObject(expected);
    expect(outsider.actions()).toEqual([]);
    // Still in the community and its other channels.
    expect(await isMember(w.announcements.id, w.member.id)).toBe(true);
    const again = await call(s.url, 'POST', `/v1/channels/${w.general.id}/leave`, { token: w.member.token });
    expect(again.body).toEqual({ success: false, status: 400, message: 'You are not a member of this channel' });
    leaver.close();
    stayer.close();
    outsider.close();
  });

  it('treats leaving the announcements channel as leaving the community', async () => {
    const w = await makeWorld(s, 'aleave');
    const left = await call<ChannelAnswer>(s.url, 'POST', `/v1/channels/${w.announcements.id}/leave`, {
      token: w.member.token,
    });
    expect(left.data.channel).toMatchObject({ is_member: false });
    for (const channel of [w.announcements, w.general, w.readOnly]) expect(await isMember(channel.id, w.member.id)).toBe(false);
    const community = await call<CommunityAnswer>(s.url, 'GET', `/v1/communities/${w.community.id}`, {
      token: w.member.token,
    });
    expect(community.data.community).toMatchObject({ is_member: false, members_count: 2 });

    const admin = await call(s.url, 'POST', `/v1/channels/${w.announcements.id}/leave`, { token: w.admin.token });
    expect(admin.body).toEqual({ success: false, status: 403, message: 'Community admins cannot leave the community' });
    expect(await isMember(w.announcements.id, w.admin.id)).toBe(true);
  });
});

describe('posts', () => {
  it('creates posts and pages through them oldest first, with participants', async () => {
    const w = await makeWorld(s, 'posts');
    const ids: number[] = [];
    for (let i = 1; i <= 25; i++) {
      ids.push(await post(s, i % 2 ? w.member.token : w.owner.token, w.general.id, `post ${i}`));
    }

    const latest = await call<PostsAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}/posts`, { token: w.admin.token });
    expect(latest.data.posts.map((p) => p.message)).toEqual(ids.slice(5).map((_, i) => `post ${i + 6}`));
    expect(latest.data.posts[0]).toMatchObject({ conversation_id: w.general.id, discussion: { comments_count: 0 } });
    expect(latest.data.participants.map((p) => p.user_id).sort()).toEqual([w.member.id, w.owner.id].sort());
    expect(latest.data.participants.find((p) => p.user_id === w.member.id)?.name).toBe('Member posts');

    const q = (query: string) =>
      call<PostsAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}/posts?${query}`, { token: w.member.token }).then(
        (r) => r.data.posts.map((p) => p.id),
      );
    expect(await q(`limit=3&before=${ids[10]}`)).toEqual(ids.slice(7, 10));
    expect(await q(`limit=3&after=${ids[10]}`)).toEqual(ids.slice(11, 14));
    expect(await q(`limit=5&around=${ids[10]}`)).toEqual(ids.slice(8, 13));
    expect(await q('limit=2')).toEqual(ids.slice(23));
    expect(await q('limit=100')).toEqual(ids);
  });

  it('answers posts with the same shape as a sent message, idempotently for a retried client_id', async () => {
    const w = await makeWorld(s, 'pshape');
    const body = { message: '  Hello channel  ', client_id: 42 };
    const first = await call<{ post: Message }>(s.url, 'POST', `/v1/channels/${w.general.id}/posts`, {
      token: w.member.token,
      json: body,
    });
    expect(first.data.post).toMatchObject({
      message: 'Hello channel',
      client_id: 42,
      user_id: w.member.id,
      conversation_id: w.general.id,
      conversation_stid: w.general.stid,
      discussion: { comments_count: 0 },
      reactions: [],
    });
    const retry = await call<{ post: Message }>(s.url, 'POST', `/v1/channels/${w.general.id}/posts`, {
      token: w.member.token,
      json: body,
    });
    expect(retry.data.post.id).toBe(first.data.post.id);
    const count = await s.server.ctx.db.get(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${w.general.id}`);
    expect(count).toEqual({ n: 1 });
  });

  it('posts an uploaded image', async () => {
    const w = await makeWorld(s, 'pimg');
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'dot.png');
    const upload = await call<{ file: { id: string } }>(s.url, 'POST', '/v2/filestorage/file', {
      token: w.member.token,
      body: form,
    });
    const created = await call<{ post: Message }>(s.url, 'POST', `/v1/channels/${w.general.id}/posts`, {
      token: w.member.token,
      json: { message: '', attachment: { type: 'image', files: [{ id: upload.data.file.id }] } },
    });
    expect(created.data.post.attachment).toMatchObject({ type: 'image', mime: 'image/png', name: 'dot.png' });
  });

  it('lets only admins with create_posts post announcements, and only admins write in read-only channels or reply', async () => {
    const w = await makeWorld(s, 'rules');
    const send = (token: string, channelId: number, json: unknown) =>
      call<{ post: Message }>(s.url, 'POST', `/v1/channels/${channelId}/posts`, { token, json });

    const denied = await send(w.member.token, w.announcements.id, { message: 'Hi all' });
    expect(denied.body).toEqual({ success: false, status: 403, message: 'Only community admins can send announcements.' });
    expect((await send(w.owner.token, w.announcements.id, { message: 'Welcome' })).status).toBe(200);
    // A community admin without the create_posts permission may not announce (spec §6).
    const noPermission = await send(w.admin.token, w.announcements.id, { message: 'Rules updated' });
    expect(noPermission.body).toMatchObject({ status: 403, message: 'Only community admins can send announcements.' });
    await s.server.ctx.db.run(
      sql`UPDATE conversation_members SET can_create_posts = 1 WHERE conversation_id = ${w.announcements.id} AND user_id = ${w.admin.id}`,
    );
    expect((await send(w.admin.token, w.announcements.id, { message: 'Rules updated' })).status).toBe(200);

    const readOnly = await send(w.member.token, w.readOnly.id, { message: 'May I?' });
    expect(readOnly.body).toEqual({ success: false, status: 403, message: 'Only community admins can send messages.' });
    expect((await send(w.admin.token, w.readOnly.id, { message: 'Rule 1' })).status).toBe(200);

    const open = await send(w.member.token, w.general.id, { message: 'Anyone here?' });
    const reply = await send(w.member.token, w.general.id, { message: 'me', quoted_message_id: open.data.post.id });
    expect(reply.status).toBe(403);
    const adminReply = await send(w.admin.token, w.general.id, { message: 'Yes', quoted_message_id: open.data.post.id });
    expect(adminReply.data.post.quoted).toBe(open.data.post.id);

    const stored = (
      await s.server.ctx.db.all<{ message: string }>(
        sql`SELECT message FROM messages WHERE conversation_id IN ${list([w.announcements.id, w.readOnly.id, w.general.id])} ORDER BY id`,
      )
    ).map((r) => r.message);
    expect(stored).toEqual(['Welcome', 'Rules updated', 'Rule 1', 'Anyone here?', 'Yes']);
  });

  it('keeps non-members out: no reading, no posting, no data', async () => {
    const w = await makeWorld(s, 'pout');
    await post(s, w.owner.token, w.general.id, 'members only');
    const notMember = { success: false, status: 403, message: 'You are not a member of this channel' };
    const read = await call(s.url, 'GET', `/v1/channels/${w.general.id}/posts`, { token: w.outsider.token });
    expect(read.body).toEqual(notMember);
    const write = await call(s.url, 'POST', `/v1/channels/${w.general.id}/posts`, {
      token: w.outsider.token,
      json: { message: 'let me in' },
    });
    expect(write.body).toEqual(notMember);

    // Joining the community opens the announcements channel, not the others.
    await call(s.url, 'POST', `/v1/communities/${w.community.id}/join`, { token: w.outsider.token }).then((r) => r.data);
    const asOutsider = { token: w.outsider.token };
    expect((await call(s.url, 'GET', `/v1/channels/${w.announcements.id}/posts`, asOutsider)).status).toBe(200);
    expect((await call(s.url, 'GET', `/v1/channels/${w.general.id}/posts`, asOutsider)).body).toEqual(notMember);

    const secret = await call(s.url, 'GET', `/v1/channels/${w.secretAnnouncements.id}/posts`, { token: w.outsider.token });
    expect(secret.body).toEqual({ success: false, status: 404, message: 'No channel data available' });
    const count = await s.server.ctx.db.get(sql`SELECT COUNT(*) AS n FROM messages WHERE user_id = ${w.outsider.id}`);
    expect(count).toEqual({ n: 0 });
  });

  it('tells new posts to channel members only', async () => {
    const w = await makeWorld(s, 'pws');
    const reader = new TestSocket(s.url, w.admin.token);
    const outsider = new TestSocket(s.url, w.outsider.token);
    await Promise.all([reader.loaded(), outsider.loaded()]);
    const id = await post(s, w.member.token, w.general.id, 'news');
    const frame = await reader.next((f) => f.action === 'conversation_message');
    expect(frame).toMatchObject({ data: { conversation_id: w.general.id, message: { id, message: 'news' } } });
    expect(outsider.actions()).toEqual([]);
    reader.close();
    outsider.close();
  });

  it('answers bad post bodies and queries with 400 and stores nothing', async () => {
    const w = await makeWorld(s, 'pbad');
    const invalid = { success: false, status: 400, message: 'Invalid parameters provided' };
    const t = { token: w.member.token };
    const path = `/v1/channels/${w.general.id}/posts`;
    // A number that breaks the number rule names its field (docs/server.md "Numbers"); the rest is spec §5's text.
    const refused = (message: string) => ({ success: false, status: 400, message });
    const ids = `1 to ${Number.MAX_SAFE_INTEGER}`;
    const queries: [string, unknown][] = [
      ['limit=0', refused('limit must be a whole number from 1 to 100')],
      ['limit=101', refused('limit must be a whole number from 1 to 100')],
      ['limit=abc', refused('limit must be a whole number from 1 to 100')],
      ['before=0', refused(`before must be a whole number from ${ids}`)],
      ['after=x', refused(`after must be a whole number from ${ids}`)],
      ['around=-3', refused(`around must be a whole number from ${ids}`)],
      ['before=5&after=2', invalid],
    ];
    for (const [query, answer] of queries) {
      expect([query, (await call(s.url, 'GET', `${path}?${query}`, t)).body]).toEqual([query, answer]);
    }
    const bodies: [unknown, unknown][] = [
      [{ message: 'x', client_id: 0 }, refused('client_id must be a whole number from 1 to 10000')],
      [{ message: 'x', client_id: 10_001 }, refused('client_id must be a whole number from 1 to 10000')],
      [{ message: { text: 'x' } }, invalid],
      [{ message: 'x', attachment: { type: 'audio', files: [{ id: 'f' }] } }, invalid],
      [{ message: 'x', attachment: { type: 'image', files: [] } }, invalid],
      [{ message: 'x', attachment: 'image' }, invalid],
      [{ message: 'x', quoted_message_id: 'first' }, refused(`quoted_message_id must be a whole number from ${ids}`)],
      [['x'], invalid],
    ];
    for (const [json, answer] of bodies) {
      expect([json, (await call(s.url, 'POST', path, { ...t, json })).body]).toEqual([json, answer]);
    }
    const empty = await call(s.url, 'POST', path, { ...t, json: { message: '   ' } });
    expect(empty.body).toEqual({
      success: false,
      status: 400,
      message: 'A message needs text or an attachment',
      code: 'message_empty',
    });
    const long = await call(s.url, 'POST', path, { ...t, json: { message: 'x'.repeat(10_001) } });
    expect(long.status).toBe(400);
    const unknownFile = await call(s.url, 'POST', path, {
      ...t,
      json: { attachment: { type: 'image', files: [{ id: 'nope' }] } },
    });
    expect(unknownFile.status).toBe(400);
    const malformed = await call(s.url, 'POST', path, {
      ...t,
      body: '{"message":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const count = await s.server.ctx.db.get(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${w.general.id}`);
    expect(count).toEqual({ n: 0 });
  });
});
