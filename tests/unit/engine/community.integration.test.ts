import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { nextPhone, useTestServer } from '../../support/server';
import { refusal, until, useEngines } from './support/liveEngines';

/** Budi of the demo world (server/seed/demoUsers.ts): owner of "Kopi Nusantara". */
const DEMO_BUDI = '+628123456701';
const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));

const { startEngine, signedInEngine } = useEngines(useTestServer({ seedDemo: true }));

describe('communities through the engine, against the seeded reference server', () => {
  it('joins, posts, comments, and sees another member comment and reactions arrive by socket', async () => {
    const storage = new MemoryStorage();
    const { engine: newcomer } = await signedInEngine('Sari', { phone: nextPhone('62'), storage });
    const { engine: budi } = await signedInEngine(null, { phone: DEMO_BUDI });

    await newcomer.refreshCommunities();
    const list = await firstValueFrom(newcomer.communities());
    const kopi = list.communities.find((c) => c.name === 'Kopi Nusantara');
    if (!kopi) throw new Error('the seeded community is missing');
    expect(list).toMatchObject({ loaded: true, joined: [] });

    await newcomer.searchCommunities('KOPI');
    expect((await firstValueFrom(newcomer.communities())).search).toMatchObject({ query: 'KOPI', status: 'loaded' });
    expect(await newcomer.searchCommunities('   ')).toEqual([]);
    expect((await firstValueFrom(newcomer.communities())).search).toBeNull();

    await newcomer.openCommunity(kopi.id);
    const channels = await firstValueFrom(newcomer.channels(kopi.id));
    const talk = channels.channels.find((c) => c.name === 'Diskusi Umum');
    if (!talk) throw new Error('the seeded channel is missing');
    const joined = await newcomer.joinCommunity(kopi.id);
    expect(joined.is_member).toBe(true);
    await until(newcomer.community(kopi.id), (c) => c?.is_member === true);
    await until(newcomer.communities(), (v) => v.joined.some((c) => c.id === kopi.id));
    await newcomer.joinChannel(talk.id);
    await until(newcomer.channel(talk.id), (c) => c?.is_member === true);

    await newcomer.loadPosts(talk.id);
    const posts = await firstValueFrom(newcomer.posts(talk.id));
    expect(posts.loaded).toBe(true);
    expect(posts.posts.length).toBeGreaterThan(0);
    expect(posts.posts.map((p) => p.id)).toEqual([...posts.posts.map((p) => p.id)].sort((a, b) => a - b));
    const authors = posts.posts.map((p) => p.user_id);
    expect(authors.every((id) => posts.participants[id] !== undefined)).toBe(true);

    const mine = await newcomer.createPost(talk.id, { text: 'Halo dari Sari', file: new File([PNG], 'kopi.png', { type: 'image/png' }) });
    const withMine = await until(newcomer.posts(talk.id), (v) => v.posts.some((p) => p.id === mine.id));
    expect(withMine.posts.find((p) => p.id === mine.id)).toMatchObject({ message: 'Halo dari Sari', attachment: { type: 'image' } });

    await newcomer.loadComments(talk.id, mine.id);
    expect(await firstValueFrom(newcomer.comments(talk.id, mine.id))).toMatchObject({ comments: [], loaded: true, hasOlder: false });
    // A comment goes through the outbox: pending in its thread at once, then the server's, once.
    const queued = await newcomer.addComment(talk.id, mine.id, 'Komentar pertama');
    expect(queued).toMatchObject({ status: 'pending', text: 'Komentar pertama', comment: { postId: mine.id, parentCommentId: null } });
    const sent = await until(newcomer.comments(talk.id, mine.id), (v) => v.pending.length === 0 && v.comments.length === 1);
    expect(sent.comments[0]).toMatchObject({ message: 'Komentar pertama', client_id: queued.clientId });

    // Budi (a member of his own community's channels) comments: it reaches Sari by socket.
    await budi.joinChannel(talk.id).catch(() => undefined);
    await budi.addComment(talk.id, mine.id, 'Selamat datang, Sari!');
    const thread = await until(newcomer.comments(talk.id, mine.id), (v) => v.comments.length === 2);
    expect(thread.comments.map((c) => c.message)).toEqual(['Komentar pertama', 'Selamat datang, Sari!']);
    const fromBudi = thread.comments[1]!;
    expect(thread.participants[fromBudi.user_id]?.name).toBe('Budi');
    // The post's comment count follows (conversation_message_update), in the posts view too.
    await until(newcomer.posts(talk.id), (v) => v.posts.find((p) => p.id === mine.id)?.discussion?.comments_count === 2);

    // Reactions: Budi reacts to Sari's comment and post; both reach her by socket.
    const first = thread.comments[0];
    if (!first) throw new Error('no comment');
    await budi.reactToComment(talk.id, mine.id, first.comment_id, '👍', true);
    await until(newcomer.comments(talk.id, mine.id), (v) => v.comments[0]?.reactions[0]?.reaction === '👍');
    await budi.reactToPost(talk.id, mine.id, '🎉', true);
    await until(newcomer.posts(talk.id), (v) => v.posts.find((p) => p.id === mine.id)?.reactions.some((r) => r.reaction === '🎉') === true);

    // Refusals before any call (spec §5).
    expect(await refusal(newcomer.addComment(talk.id, mine.id, '   '))).toBe('Invalid message provided');
    // A blank post says what is wrong, as a blank message does, rather than the generic "Failed to send message".
    expect(await refusal(newcomer.createPost(talk.id, { text: ' \n ' }))).toBe('Invalid message provided');
    expect(await refusal(newcomer.reactToComment(talk.id, mine.id, first.comment_id, '', true))).toBe('Invalid parameters provided');
    expect(await refusal(newcomer.reactToPost(talk.id, 0, '👍', true))).toBe('Invalid parameters provided');
    expect(await refusal(newcomer.openCommunity(-1))).toBe('Invalid parameters provided');
    expect(await refusal(newcomer.openCommunity(999_999))).toBe('Community not found');

    // The communities store survives a restart (spec §3 "Communities store").
    await newcomer.stop();
    const again = await startEngine({ storage });
    expect((await firstValueFrom(again.communities())).joined.map((c) => c.id)).toEqual([kopi.id]);
    expect((await firstValueFrom(again.channels(kopi.id))).channels.map((c) => c.id)).toContain(talk.id);
    expect((await firstValueFrom(again.posts(talk.id))).posts.some((p) => p.id === mine.id)).toBe(true);

    await again.leaveChannel(talk.id);
    await until(again.channel(talk.id), (c) => c?.is_member === false);
    await again.logout();
    expect(await firstValueFrom(again.communities())).toMatchObject({ communities: [], loaded: false });
    expect(await storage.get('communities', 'state')).toBeUndefined();
  }, 30_000);

  it('pages older posts 20 at a time', async () => {
    const { engine: budi } = await signedInEngine(null, { phone: DEMO_BUDI });
    await budi.refreshCommunities();
    const kopi = (await firstValueFrom(budi.communities())).communities.find((c) => c.name === 'Kopi Nusantara');
    if (!kopi) throw new Error('the seeded community is missing');
    await budi.openCommunity(kopi.id);
    const channel = (await firstValueFrom(budi.channels(kopi.id))).channels.find((c) => c.is_member && !c.read_only);
    if (!channel) throw new Error('no channel to post in');
    await budi.loadPosts(channel.id);
    const before = (await firstValueFrom(budi.posts(channel.id))).posts.length;
    for (let i = 0; i < 21; i++) await budi.createPost(channel.id, { text: `post ${i}` });
    // Another device (nothing loaded yet) pages through them.
    const { engine: reader } = await signedInEngine(null, { phone: DEMO_BUDI });
    await reader.loadPosts(channel.id);
    const latest = await firstValueFrom(reader.posts(channel.id));
    expect(latest.posts.map((p) => p.message)).toEqual(Array.from({ length: 20 }, (_, i) => `post ${i + 1}`));
    expect(latest.hasOlder).toBe(true);
    expect(await reader.loadOlderPosts(channel.id)).toBe(true);
    const more = await firstValueFrom(reader.posts(channel.id));
    expect(more.posts.length).toBe(Math.min(40, before + 21));
    expect(more.posts[more.posts.length - 21]?.message).toBe('post 0');
    expect(more.posts.map((p) => p.id)).toEqual([...more.posts.map((p) => p.id)].sort((a, b) => a - b));
  }, 30_000);
});
