import { beforeAll, describe, expect, it } from 'vitest';
import type { RestClient } from '../../../src/engine/rest';
import { signUp, TEST_PIN, useTestServer } from '../../support/server';
import { restClient } from './support/liveEngines';

/** Budi of the demo world (server/seed/demoUsers.ts): owner of "Kopi Nusantara". */
const DEMO_BUDI = '+628123456701';

describe('REST communities and channels against the seeded reference server', () => {
  const s = useTestServer({ seedDemo: true });
  let owner: RestClient;
  let newcomer: RestClient;
  let newcomerId: number;

  beforeAll(async () => {
    const anonymous = restClient(s.url, null);
    await anonymous.requestPin(DEMO_BUDI);
    owner = restClient(s.url, (await anonymous.confirmPin(DEMO_BUDI, TEST_PIN)).token);
    const user = await signUp(s.url, 'Budi', '62');
    newcomerId = user.id;
    newcomer = restClient(s.url, user.token);
  });

  it('lists, searches, shows and joins a community, then reads and writes in its channels', async () => {
    const { communities } = await newcomer.getCommunities();
    const kopi = communities.find((c) => c.name === 'Kopi Nusantara');
    expect(kopi).toMatchObject({ is_member: false });
    if (!kopi) throw new Error('the seeded community is missing');
    expect((await newcomer.getCommunities({ onlyJoined: true })).communities).toEqual([]);
    expect((await newcomer.searchCommunities('KOPI')).search_results.map((c) => c.id)).toEqual([kopi.id]);
    expect((await newcomer.getCommunity(kopi.id)).community.name).toBe('Kopi Nusantara');

    const joined = await newcomer.joinCommunity(kopi.id);
    expect(joined.community.is_member).toBe(true);
    const { channels } = await newcomer.getCommunityChannels(kopi.id);
    const talk = channels.find((c) => c.name === 'Diskusi Umum');
    if (!talk) throw new Error('the seeded channel is missing');
    expect((await newcomer.getChannel(talk.stid)).channel.id).toBe(talk.id);
    expect((await newcomer.joinChannel(talk.id)).channel.is_member).toBe(true);

    const { posts, participants } = await newcomer.getPosts(talk.id, { limit: 2 });
    expect(posts).toHaveLength(2);
    expect(participants.length).toBeGreaterThan(0);
    const kintamani = (await newcomer.getPosts(talk.id)).posts.find((p) => p.message.includes('Kintamani'));
    if (!kintamani) throw new Error('the seeded post is missing');
    const { comments } = await newcomer.getComments(talk.id, { postId: kintamani.id });
    expect(comments.length).toBeGreaterThanOrEqual(2);

    const mine = await newcomer.createComment(talk.id, { postId: kintamani.id, message: 'Saya juga suka!' });
    expect(mine.comment).toMatchObject({ post_id: kintamani.id, user_id: newcomerId });
    const reply = await newcomer.createComment(talk.id, {
      postId: kintamani.id,
      message: 'Balasan',
      parentCommentId: mine.comment.comment_id,
      clientId: 31,
      idempotencyKey: 'comment-1',
    });
    expect(reply.comment.parent_comment_id).toBe(mine.comment.comment_id);
    const replies = await newcomer.getComments(talk.id, { postId: kintamani.id, parentCommentId: mine.comment.comment_id });
    expect(replies.comments.map((c) => c.message)).toEqual(['Balasan']);

    const viaSend = await newcomer.sendMessageAsComment(talk.id, { clientId: 32, message: 'Lewat pesan', postId: kintamani.id });
    expect(viaSend.comment.post_id).toBe(kintamani.id);
    expect(viaSend.participants.map((p) => p.user_id)).toContain(newcomerId);

    const liked = await newcomer.addCommentReaction(talk.id, kintamani.id, mine.comment.comment_id, '❤️');
    expect(liked.comment.reactions.map((r) => r.reaction)).toEqual(['❤️']);
    const unliked = await newcomer.removeCommentReaction(talk.id, kintamani.id, mine.comment.comment_id, '❤️');
    expect(unliked.comment.reactions).toEqual([]);

    const postLiked = await newcomer.addPostReaction(talk.id, kintamani.id, '🔥');
    expect(postLiked.post.reactions.map((r) => r.reaction)).toContain('🔥');
    const postUnliked = await newcomer.removePostReaction(talk.id, kintamani.id, '🔥');
    expect(postUnliked.post.reactions.map((r) => r.reaction)).not.toContain('🔥');

    const { post } = await newcomer.createPost(talk.id, { message: 'Halo semua!', clientId: 5, idempotencyKey: 'post-1' });
    expect(post).toMatchObject({ message: 'Halo semua!', user_id: newcomerId });

    expect((await newcomer.leaveChannel(talk.id)).channel.is_member).toBe(false);
    await expect(newcomer.getPosts(talk.id)).rejects.toMatchObject({
      status: 403,
      message: 'You are not a member of this channel',
      call: 'getPosts',
    });
    expect((await newcomer.leaveCommunity(kopi.id)).community.is_member).toBe(false);
  });

  it('refusals carry the server message: an owner cannot leave, a Swede has no communities', async () => {
    const kopi = (await owner.getCommunities({ onlyJoined: true })).communities.find((c) => c.name === 'Kopi Nusantara');
    expect(kopi?.member?.is_admin).toBe(true);
    await expect(owner.leaveCommunity(kopi?.id ?? 0)).rejects.toMatchObject({
      name: 'EngineError',
      status: 403,
      fallback: 'Failed to leave community',
    });

    const swede = restClient(s.url, (await signUp(s.url, 'Sven', '46')).token);
    await expect(swede.getCommunities()).rejects.toMatchObject({
      status: 403,
      message: 'Communities are not available in your country',
    });
  });
});
