import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommentAnswer, CommentsAnswer, PostsAnswer } from '../../src/protocol/api';
import type { Message } from '../../src/protocol/entities';
import type { ServerFrame } from '../../src/protocol/socket';
import { call, startTestServer, type TestServer, TestSocket } from '../support/server';
import { REACTIONS_PER_USER_MAX } from '../../server/domain/reactions';
import { list, sql } from '../../server/db/store';
import { makeWorld, post } from './communities-support';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const comment = (token: string, channelId: number, json: unknown) =>
  call<CommentAnswer>(s.url, 'POST', `/v1/channels/${channelId}/post_comments`, { token, json });

const commentCount = async () => (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM comments`))!.n;

/** The number rule's refusal of an id field (docs/server.md "Numbers"). */
const badId = (field: string) => ({
  success: false,
  status: 400,
  message: `${field} must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}`,
});

const reactionsOf = (frame: ServerFrame) => (frame.action === 'reactions_changed' ? frame.data : undefined);

describe('post comments', () => {
  it('adds comments and replies, counts them on the post, and lists them with participants', async () => {
    const w = await makeWorld(s, 'cm');
    const postId = await post(s, w.owner.token, w.general.id, 'What do you build?');
    const first = await comment(w.member.token, w.general.id, { post_id: postId, message: '  A robot  ' });
    expect(first.data.comment).toMatchObject({
      post_id: postId,
      channel_id: w.general.id,
      parent_comment_id: null,
      user_id: w.member.id,
      message: 'A robot',
      reactions: [],
      replies_count: 0,
      client_id: null,
    });
    const reply = await comment(w.admin.token, w.general.id, {
      post_id: postId,
      message: 'Nice',
      parent_comment_id: first.data.comment.comment_id,
    });
    expect(reply.data.comment.parent_comment_id).toBe(first.data.comment.comment_id);
    await comment(w.owner.token, w.general.id, { post_id: postId, message: 'A boat', parent_comment_id: null });

    const top = await call<CommentsAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}/post_comments?post_id=${postId}`, {
      token: w.member.token,
    });
    expect(top.data.comments.map((c) => [c.message, c.replies_count])).toEqual([
      ['A robot', 1],
      ['A boat', 0],
    ]);
    expect(top.data.participants.map((p) => p.name).sort()).toEqual(['Member cm', 'Owner cm']);

    const replies = await call<CommentsAnswer>(
      s.url,
      'GET',
      `/v1/channels/${w.general.id}/post_comments?post_id=${postId}&parent_comment_id=${first.data.comment.comment_id}`,
      { token: w.owner.token },
    );
    expect(replies.data.comments.map((c) => c.message)).toEqual(['Nice']);
    expect(replies.data.participants).toEqual([{ user_id: w.admin.id, name: 'Admin cm', avatar: '' }]);

    const posts = await call<PostsAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}/posts`, { token: w.member.token });
    expect(posts.data.posts[0]?.discussion).toEqual({ comments_count: 3 });
  });

  it('names a participant without a nickname with an empty name, never their phone number', async () => {
    const w = await makeWorld(s, 'cnick');
    const postId = await post(s, w.owner.token, w.general.id, 'Who are you?');
    await s.server.ctx.db.run(sql`UPDATE users SET nickname = '' WHERE id = ${w.member.id}`);
    const added = await comment(w.member.token, w.general.id, { post_id: postId, message: 'Nobody' });
    expect(added.status).toBe(200);
    const listed = await call<CommentsAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}/post_comments?post_id=${postId}`, {
      token: w.owner.token,
    });
    expect(listed.data.participants).toEqual([{ user_id: w.member.id, name: '', avatar: '' }]);
    expect(JSON.stringify(listed.body)).not.toContain(w.member.phone);
  });

  it('keeps a retried comment with a client_id to one comment and tells nobody twice', async () => {
    const w = await makeWorld(s, 'cretry');
    const postId = await post(s, w.owner.token, w.general.id, 'Retry me');
    const owner = new TestSocket(s.url, w.owner.token);
    await owner.loaded();
    const comments = async () =>
      (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM comments WHERE post_id = ${postId}`))!.n;
    const json = { post_id: postId, message: 'Only once', client_id: 42 };
    const first = await comment(w.member.token, w.general.id, json);
    const retry = await comment(w.member.token, w.general.id, json);
    expect([first.status, retry.status]).toEqual([200, 200]);
    expect(retry.data.comment).toEqual(first.data.comment);
    // The sender's client_id comes back, so its pending comment can be matched to it.
    expect(first.data.comment.client_id).toBe(42);
    expect(await comments()).toBe(1);
    // Another parent, other text or no client_id at all: new comments.
    const reply = { ...json, parent_comment_id: first.data.comment.comment_id };
    expect((await comment(w.member.token, w.general.id, reply)).data.comment.comment_id).not.toBe(
      first.data.comment.comment_id,
    );
    await comment(w.member.token, w.general.id, { ...json, message: 'Another' });
    await comment(w.member.token, w.general.id, { post_id: postId, message: 'Only once' });
    await comment(w.member.token, w.general.id, { post_id: postId, message: 'Only once' });
    expect(await comments()).toBe(5);
    const invalid = await comment(w.member.token, w.general.id, { ...json, client_id: 0 });
    expect(invalid.body).toEqual({ success: false, status: 400, message: 'client_id must be a whole number from 1 to 10000' });

    await comment(w.member.token, w.general.id, { post_id: postId, message: 'Done' });
    await owner.next((f) => f.action === 'channel_post_comment_added' && f.data.comment.message === 'Done');
    const added = owner.frames.filter((f) => f.action === 'channel_post_comment_added');
    expect(added).toHaveLength(6);
    owner.close();
  });

  it('finds the post the one way every post call does: a post hidden by the caller is not found', async () => {
    const w = await makeWorld(s, 'chide');
    const postId = await post(s, w.owner.token, w.general.id, 'Hide me');
    const hidden = await call(s.url, 'POST', `/v2/conversations/${w.general.id}/hide_messages`, {
      token: w.member.token,
      json: { message_ids: [postId] },
    });
    expect(hidden.status).toBe(200);
    const notFound = { success: false, status: 404, message: 'Post not found' };
    expect((await comment(w.member.token, w.general.id, { post_id: postId, message: 'x' })).body).toEqual(notFound);
    const asMessage = await call(s.url, 'POST', `/v2/conversations/${w.general.id}/messages`, {
      token: w.member.token,
      json: { client_id: 1, message: 'x', post_id: postId },
    });
    expect(asMessage.body).toEqual(notFound);
    const reaction = await call(s.url, 'POST', `/v1/channels/${w.general.id}/add_post_reaction`, {
      token: w.member.token,
      json: { post_id: postId, reaction: '👍' },
    });
    expect(reaction.body).toEqual(notFound);
    // Others still see it and comment on it.
    expect((await comment(w.admin.token, w.general.id, { post_id: postId, message: 'y' })).status).toBe(200);
  });

  it('pages comments before, after and around a comment', async () => {
    const w = await makeWorld(s, 'cpage');
    const postId = await post(s, w.owner.token, w.general.id, 'Count');
    const ids: number[] = [];
    for (let i = 1; i <= 60; i++) {
      const added = await comment(w.member.token, w.general.id, { post_id: postId, message: `c${i}` });
      ids.push(added.data.comment.comment_id);
    }
    const q = (query: string) =>
      call<CommentsAnswer>(s.url, 'GET', `/v1/channels/${w.general.id}/post_comments?post_id=${postId}&${query}`, {
        token: w.member.token,
      }).then((r) => r.data.comments.map((c) => c.comment_id));
    expect(await q('')).toEqual(ids.slice(10));
    expect(await q(`limit=2&before=${ids[5]}`)).toEqual(ids.slice(3, 5));
    expect(await q(`limit=2&after=${ids[5]}`)).toEqual(ids.slice(6, 8));
    expect(await q(`limit=3&around=${ids[5]}`)).toEqual(ids.slice(4, 7));
  });

  it('tells new comments to channel members only', async () => {
    const w = await makeWorld(s, 'cws');
    const postId = await post(s, w.owner.token, w.general.id, 'Ping');
    const member = new TestSocket(s.url, w.member.token);
    const outsider = new TestSocket(s.url, w.outsider.token);
    await Promise.all([member.loaded(), outsider.loaded()]);
    const added = await comment(w.admin.token, w.general.id, { post_id: postId, message: 'Pong' });
    const frame = await member.next((f) => f.action === 'channel_post_comment_added');
    expect(frame).toMatchObject({
      data: {
        channel_id: w.general.id,
        post_id: postId,
        comment: { comment_id: added.data.comment.comment_id, message: 'Pong' },
        participants: [{ user_id: w.admin.id, name: 'Admin cws' }],
      },
    });
    expect(outsider.actions()).toEqual([]);
    member.close();
    outsider.close();
  });

  it('keeps non-members from reading or writing comments', async () => {
    const w = await makeWorld(s, 'cout');
    const postId = await post(s, w.owner.token, w.general.id, 'Secret plans');
    await comment(w.member.token, w.general.id, { post_id: postId, message: 'hush' }).then((r) => r.data);
    const before = await commentCount();
    const notMember = { success: false, status: 403, message: 'You are not a member of this channel' };
    const read = await call(s.url, 'GET', `/v1/channels/${w.general.id}/post_comments?post_id=${postId}`, {
      token: w.outsider.token,
    });
    expect(read.body).toEqual(notMember);
    expect((await comment(w.outsider.token, w.general.id, { post_id: postId, message: 'hi' })).body).toEqual(notMember);
    const swede = await comment(w.swede.token, w.general.id, { post_id: postId, message: 'hej' });
    expect(swede.status).toBe(403);
    expect(await commentCount()).toBe(before);
  });

  it('answers bad comment input with the spec’s texts and stores nothing', async () => {
    const w = await makeWorld(s, 'cbad');
    const postId = await post(s, w.owner.token, w.general.id, 'Post');
    const otherPost = await post(s, w.owner.token, w.readOnly.id, 'Elsewhere');
    const parent = (await comment(w.member.token, w.general.id, { post_id: postId, message: 'p' })).data.comment;
    const before = await commentCount();
    const invalidMessage = { success: false, status: 400, message: 'Invalid message provided' };
    const invalid = { success: false, status: 400, message: 'Invalid parameters provided' };
    const t = w.member.token;
    const badMessages: unknown[] = [undefined, '', '   ', 7, 'x'.repeat(10_001)];
    for (const message of badMessages) {
      const json = { post_id: postId, message };
      expect([json, (await comment(t, w.general.id, json)).body]).toEqual([json, invalidMessage]);
    }
    expect((await comment(t, w.general.id, { message: 'x' })).body).toEqual(invalid);
    const badNumbers: [unknown, string][] = [
      [{ post_id: 'x', message: 'x' }, 'post_id'],
      [{ post_id: 0, message: 'x' }, 'post_id'],
      [{ post_id: postId, message: 'x', parent_comment_id: 'p' }, 'parent_comment_id'],
    ];
    for (const [json, field] of badNumbers) {
      expect([json, (await comment(t, w.general.id, json)).body]).toEqual([json, badId(field)]);
    }
    expect((await comment(t, w.general.id, { post_id: otherPost, message: 'x' })).body).toEqual({
      success: false,
      status: 404,
      message: 'Post not found',
    });
    expect((await comment(t, w.general.id, { post_id: postId, message: 'x', parent_comment_id: 999_999 })).body).toEqual({
      success: false,
      status: 404,
      message: 'Comment not found',
    });
    expect(await commentCount()).toBe(before);
    // The listing's query is checked the same way.
    const path = `/v1/channels/${w.general.id}/post_comments`;
    const badLimit = { success: false, status: 400, message: 'limit must be a whole number from 1 to 100' };
    const badQueries: [string, unknown][] = [
      ['', invalid],
      ['?post_id=abc', badId('post_id')],
      ['?post_id=1&limit=0', badLimit],
      ['?post_id=1&limit=101', badLimit],
      [`?post_id=${postId}&before=1&around=2`, invalid],
    ];
    for (const [query, answer] of badQueries) {
      expect([query, (await call(s.url, 'GET', path + query, { token: t })).body]).toEqual([query, answer]);
    }
    expect((await call(s.url, 'GET', `${path}?post_id=${otherPost}`, { token: t })).status).toBe(404);
    const foreignParent = await call(s.url, 'GET', `${path}?post_id=${otherPost}&parent_comment_id=${parent.comment_id}`, {
      token: w.owner.token,
    });
    expect(foreignParent.status).toBe(404);
  });
});

describe('post and comment reactions', () => {
  it('adds and removes a post reaction, telling channel members once per real change', async () => {
    const w = await makeWorld(s, 'rp');
    const postId = await post(s, w.owner.token, w.general.id, 'React to me');
    const member = new TestSocket(s.url, w.member.token);
    const outsider = new TestSocket(s.url, w.outsider.token);
    await Promise.all([member.loaded(), outsider.loaded()]);
    const react = (route: string, reaction: string) =>
      call<{ post: Message }>(s.url, 'POST', `/v1/channels/${w.general.id}/${route}`, {
        token: w.admin.token,
        json: { post_id: postId, reaction },
      });

    const added = await react('add_post_reaction', '👍');
    expect(added.data.post.reactions).toEqual([
      { reaction: '👍', users: [{ user_id: w.admin.id, set_at: expect.any(String) }] },
    ]);
    await react('add_post_reaction', '👍').then((r) => r.data);
    await react('delete_post_reaction', '🎉').then((r) => r.data);
    const removed = await react('delete_post_reaction', '👍');
    expect(removed.data.post.reactions).toEqual([]);

    await member.next((f) => reactionsOf(f)?.reactions.length === 0);
    const changes = member.frames.map(reactionsOf).filter((d) => d !== undefined);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toMatchObject({
      conversation_id: w.general.id,
      message_id: postId,
      reactions: [{ reaction: '👍' }],
    });
    expect(changes[0]?.comment_id).toBeUndefined();
    expect(typeof changes[0]?.message_stid).toBe('string');
    expect(outsider.actions()).toEqual([]);
    member.close();
    outsider.close();
  });

  it('adds and removes a comment reaction, the event naming the comment', async () => {
    const w = await makeWorld(s, 'rc');
    const postId = await post(s, w.owner.token, w.general.id, 'Post');
    const c = (await comment(w.member.token, w.general.id, { post_id: postId, message: 'Comment' })).data.comment;
    const owner = new TestSocket(s.url, w.owner.token);
    const outsider = new TestSocket(s.url, w.outsider.token);
    await Promise.all([owner.loaded(), outsider.loaded()]);
    const body = { post_id: postId, comment_id: c.comment_id, reaction: '❤️' };
    const added = await call<CommentAnswer>(s.url, 'POST', `/v1/channels/${w.general.id}/add_comment_reaction`, {
      token: w.member.token,
      json: body,
    });
    expect(added.data.comment.reactions).toMatchObject([{ reaction: '❤️', users: [{ user_id: w.member.id }] }]);
    const frame = await owner.next((f) => f.action === 'reactions_changed');
    // The comment's own shape: no message_id/message_stid, so it cannot overwrite the post's reactions.
    expect(reactionsOf(frame)).toEqual({
      conversation_id: w.general.id,
      post_id: postId,
      comment_id: c.comment_id,
      reactions: added.data.comment.reactions,
    });
    const listPath = `/v1/channels/${w.general.id}/post_comments?post_id=${postId}`;
    const listed = await call<CommentsAnswer>(s.url, 'GET', listPath, { token: w.owner.token });
    expect(listed.data.comments[0]?.reactions).toMatchObject([{ reaction: '❤️' }]);

    const removed = await call<CommentAnswer>(s.url, 'POST', `/v1/channels/${w.general.id}/delete_comment_reaction`, {
      token: w.member.token,
      json: body,
    });
    expect(removed.data.comment.reactions).toEqual([]);
    await owner.next((f) => reactionsOf(f)?.comment_id === c.comment_id && reactionsOf(f)?.reactions.length === 0);
    expect(outsider.actions()).toEqual([]);
    owner.close();
    outsider.close();
  });

  it(`caps post and comment reactions at ${REACTIONS_PER_USER_MAX} per user, like message reactions`, async () => {
    const w = await makeWorld(s, 'rcap');
    const postId = await post(s, w.owner.token, w.general.id, 'Popular');
    const c = (await comment(w.member.token, w.general.id, { post_id: postId, message: 'Also' })).data.comment;
    const emoji = ['😀', '😁', '😂', '🤣', '😃', '😄', '😅', '😆', '😉', '😊', '😋'];
    const r = (route: string, json: Record<string, unknown>) =>
      call(s.url, 'POST', `/v1/channels/${w.general.id}/${route}`, { token: w.member.token, json });
    for (const [route, target] of [
      ['add_post_reaction', { post_id: postId }],
      ['add_comment_reaction', { post_id: postId, comment_id: c.comment_id }],
    ] as const) {
      for (const reaction of emoji.slice(0, REACTIONS_PER_USER_MAX)) {
        expect([route, reaction, (await r(route, { ...target, reaction })).status]).toEqual([route, reaction, 200]);
      }
      const over = await r(route, { ...target, reaction: emoji[REACTIONS_PER_USER_MAX] });
      expect([route, over.status]).toEqual([route, 400]);
      // Re-adding one already there is still fine.
      expect((await r(route, { ...target, reaction: emoji[0] })).status).toBe(200);
    }
    const mine = async (table: string, key: string, id: number) =>
      (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ${id}`))!
        .n;
    expect(await mine('reactions', 'message_id', postId)).toBe(REACTIONS_PER_USER_MAX);
    expect(await mine('comment_reactions', 'comment_id', c.comment_id)).toBe(REACTIONS_PER_USER_MAX);
  });

  it('refuses reactions from non-members, on unknown posts and comments, and with bad parameters', async () => {
    const w = await makeWorld(s, 'rbad');
    const postId = await post(s, w.owner.token, w.general.id, 'Post');
    const otherPost = await post(s, w.owner.token, w.readOnly.id, 'Other');
    const c = (await comment(w.member.token, w.general.id, { post_id: postId, message: 'Comment' })).data.comment;
    const other = (await comment(w.member.token, w.readOnly.id, { post_id: otherPost, message: 'There' })).data.comment;
    const r = (route: string, token: string, json: unknown) =>
      call(s.url, 'POST', `/v1/channels/${w.general.id}/${route}`, { token, json });
    const invalid = { success: false, status: 400, message: 'Invalid parameters provided' };

    const notMember = { success: false, status: 403, message: 'You are not a member of this channel' };
    expect((await r('add_post_reaction', w.outsider.token, { post_id: postId, reaction: '👍' })).body).toEqual(notMember);
    const onComment = { post_id: postId, comment_id: c.comment_id, reaction: '👍' };
    expect((await r('add_comment_reaction', w.outsider.token, onComment)).body).toEqual(notMember);

    for (const route of ['add_post_reaction', 'delete_post_reaction']) {
      const bodies: unknown[] = [
        {},
        { post_id: postId },
        { reaction: '👍' },
        { post_id: postId, reaction: '' },
        { post_id: postId, reaction: 'lol' },
        { post_id: postId, reaction: '👍'.repeat(17) },
        { post_id: postId, reaction: ['👍'] },
      ];
      for (const json of bodies) {
        expect([route, json, (await r(route, w.member.token, json)).body]).toEqual([route, json, invalid]);
      }
      // A number that is there but is no id names its field (the number rule, docs/server.md "Numbers").
      expect((await r(route, w.member.token, { post_id: 'x', reaction: '👍' })).body).toEqual(badId('post_id'));
    }
    for (const route of ['add_comment_reaction', 'delete_comment_reaction']) {
      const bodies: unknown[] = [
        { post_id: postId, reaction: '👍' },
        { comment_id: c.comment_id, reaction: '👍' },
        { post_id: postId, comment_id: c.comment_id, reaction: 'ok' },
      ];
      for (const json of bodies) {
        expect([route, json, (await r(route, w.member.token, json)).body]).toEqual([route, json, invalid]);
      }
      const noComment = { post_id: postId, comment_id: 'c', reaction: '👍' };
      expect((await r(route, w.member.token, noComment)).body).toEqual(badId('comment_id'));
    }
    expect((await r('add_post_reaction', w.member.token, { post_id: otherPost, reaction: '👍' })).body).toMatchObject({
      status: 404,
      message: 'Post not found',
    });
    const foreign = await r('add_comment_reaction', w.member.token, { ...onComment, comment_id: other.comment_id });
    expect(foreign.body).toMatchObject({ status: 404, message: 'Comment not found' });
    const rows = await s.server.ctx.db.get(
      sql`SELECT (SELECT COUNT(*) FROM reactions WHERE message_id IN ${list([postId, otherPost])})
            + (SELECT COUNT(*) FROM comment_reactions WHERE comment_id IN ${list([c.comment_id, other.comment_id])}) AS n`,
    );
    expect(rows).toEqual({ n: 0 });
  });
});
