import { describe, expect, it } from 'vitest';
import { createChannelsSelector, createCommentsSelector, createCommunitiesSelector, createPostsSelector } from '../../../src/engine/community/views';
import { LiveState } from '../../../src/engine/state/liveState';
import { reduce } from '../../../src/engine/state/reduce';
import { type EngineEvent, type EngineState, initialState } from '../../../src/engine/state/types';
import { loadState } from '../../../src/engine/storage/persistence';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Channel, Comment, Community } from '../../../src/protocol/entities';
import { message } from './state.fixtures';
import { ManualEngineClock } from './support/fakeEngine';

/*
 * Issue 22, "one reducer": communities, channels, participants and comments live in the engine's one state,
 * written by its one writer in the record the communities store of older builds wrote and read.
 */

const community = (id: number) => ({ id, name: `Community ${id}`, is_member: true }) as Community;
const channel = (id: number, communityId: number) => ({ id, name: `Channel ${id}`, community_id: communityId }) as Channel;
const comment = (id: number, postId: number): Comment => ({
  comment_id: id,
  post_id: postId,
  parent_comment_id: null,
  channel_id: 50,
  user_id: 7,
  message: `comment ${id}`,
  created_at: '1700000000',
  reactions: [],
  replies_count: 0,
  client_id: null,
});
const anna = { user_id: 7, name: 'Anna', avatar: '' };
const ctx = { openConversations: new Set<number>(), now: 0 };
const apply = (state: EngineState, ...events: EngineEvent[]) => events.reduce((s, e) => reduce(s, e, ctx).state, state);

function liveState(storage: MemoryStorage) {
  return new LiveState({
    storage,
    clock: new ManualEngineClock(),
    log: () => undefined,
    openConversations: () => new Set(),
    extraOps: () => ({ ops: [] }),
    onEffect: () => undefined,
  });
}

const browsed = (): EngineEvent[] => [
  { type: 'signedIn', selfId: 1 },
  { type: 'communitiesLoaded', communities: [community(4)] },
  { type: 'communityOpened', community: community(4), channels: [channel(50, 4)] },
  { type: 'messagesLoaded', conversationId: 50, messages: [message(20, { conversation_id: 50, user_id: 7 })], older: false, pageSize: 20, participants: [anna] },
  { type: 'commentsLoaded', postId: 20, parentCommentId: null, comments: [comment(99, 20)], participants: [anna], hasOlder: false, older: false },
];

describe('communities in the engine state, persisted by its writer', () => {
  it('writes them with the rest of the state in one batch, in the record older builds read', async () => {
    const storage = new MemoryStorage();
    const state = liveState(storage);
    for (const event of browsed()) state.dispatch(event);
    await state.flush();
    expect(storage.batches).toBe(1);
    expect(await storage.get('communities', 'state')).toEqual({
      communities: { 4: community(4) },
      listIds: [4],
      channels: { 50: channel(50, 4) },
      channelIds: { 4: [50] },
      participants: { 7: anna },
    });
    // A message elsewhere does not write the communities again.
    const before = storage.batches;
    state.dispatch({ type: 'messagesLoaded', conversationId: 10, messages: [message(1)], older: false, pageSize: 20 });
    await state.flush();
    expect(storage.batches).toBe(before + 1);
    const restored = await loadState(storage);
    expect(restored).toMatchObject({ communityIds: [4], channelIds: { 4: [50] }, participants: { 7: anna } });
    // The threads and their comments reload when shown.
    expect(restored.commentThreads).toEqual({});
    expect(restored.comments).toEqual({});
  });

  it('reads the record an older build wrote, and a sign-out removes it', async () => {
    const storage = new MemoryStorage();
    await storage.writeBatch([
      {
        store: 'communities',
        type: 'put',
        key: 'state',
        value: { communities: { 4: community(4) }, listIds: [4], channels: {}, channelIds: {}, participants: {} },
      },
    ]);
    const restored = await loadState(storage);
    expect(restored.communityIds).toEqual([4]);
    expect(createCommunitiesSelector()(restored).joined.map((c) => c.id)).toEqual([4]);
    const state = liveState(storage);
    state.restore(restored);
    state.dispatch({ type: 'signedOut' });
    await state.flush();
    expect(await storage.get('communities', 'state')).toBeUndefined();
  });

  it('keeps the community views the very same objects when another part of the state changes', () => {
    const state = apply(initialState(), ...browsed());
    const selectCommunities = createCommunitiesSelector();
    const selectChannels = createChannelsSelector(4);
    const selectComments = createCommentsSelector(20, null);
    const selectPosts = createPostsSelector();
    const window = { messages: Object.values(state.messages[50] ?? {}), hasOlder: false, loaded: true };
    const views = [selectCommunities(state), selectChannels(state), selectComments(state, []), selectPosts(state, window)];
    const elsewhere = apply(state, { type: 'messagesLoaded', conversationId: 10, messages: [message(1)], older: false, pageSize: 20 });
    expect(elsewhere.communities).toBe(state.communities);
    const outbox: readonly never[] = [];
    const after = [selectCommunities(elsewhere), selectChannels(elsewhere), selectComments(elsewhere, outbox), selectPosts(elsewhere, window)];
    after.forEach((view, i) => expect(view).toBe(views[i]));
  });

  it('a comment by socket joins its thread and counts on its post, in one event', () => {
    const state = apply(initialState(), ...browsed());
    const next = apply(state, {
      type: 'socket',
      frame: { action: 'channel_post_comment_added', data: { channel_id: 50, post_id: 20, comment: comment(100, 20), participants: [anna] } },
    });
    expect(next.messages[50]?.[20]?.discussion?.comments_count).toBe(1);
    expect(createCommentsSelector(20, null)(next).comments.map((c) => c.comment_id)).toEqual([99, 100]);
  });

  it('keeps the communities across another server database (their screens refill them, not the sync)', () => {
    let state = apply(initialState(), ...browsed(), { type: 'socketLoaded', needSync: false, lastEventId: 3, epoch: 'old' });
    state = apply(state, { type: 'socketLoaded', needSync: true, lastEventId: 1, epoch: 'new' });
    expect(state.messages).toEqual({});
    expect(state.communityIds).toEqual([4]);
    expect(state.channels[50]).toEqual(channel(50, 4));
  });

  it('forgets them for another account', () => {
    const state = apply(initialState(), ...browsed(), { type: 'signedIn', selfId: 2 });
    expect(state.communities).toEqual({});
    expect(state.communityIds).toBeNull();
  });
});
