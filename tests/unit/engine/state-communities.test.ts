import { describe, expect, it } from 'vitest';
import { createChannelsSelector, createCommentsSelector, createCommunitiesSelector } from '../../../src/engine/community/views';
import { reduce } from '../../../src/engine/state';
import { type EngineEvent, type EngineState, initialState, threadKey } from '../../../src/engine/state/types';
import type { EventFrame } from '../../../src/protocol/socket';
import type { Channel, Comment, Community } from '../../../src/protocol/entities';

const community = (id: number, isMember = false): Community => ({
  id,
  name: `Community ${id}`,
  description: '',
  avatar: null,
  avatar_thumbnail_url: '',
  members_count: 3,
  is_private: false,
  is_member: isMember,
  announcements_channel_stid: `ch_${id}`,
  announcements_channel_id: id * 10,
  member: null,
});

const channel = (id: number, communityId: number): Channel => ({
  id,
  stid: `ch_${id}`,
  name: `Channel ${id}`,
  logo: null,
  description: '',
  created_at: '1700000000',
  members_count: 2,
  is_community_announcements: false,
  community_id: communityId,
  is_member: true,
  read_only: false,
  disable_comments: false,
});

const comment = (id: number, postId: number, parent: number | null = null, reactions: Comment['reactions'] = []): Comment => ({
  comment_id: id,
  post_id: postId,
  parent_comment_id: parent,
  channel_id: 5,
  user_id: 7,
  message: `comment ${id}`,
  created_at: '1700000000',
  reactions,
  replies_count: 0,
  client_id: null,
});

const anna = { user_id: 7, name: 'Anna', avatar: '' };

/** The engine's one reducer, for events without effects. */
const apply = (state: EngineState, ...events: EngineEvent[]) =>
  events.reduce((s, event) => reduce(s, event, { openConversations: new Set(), now: 0 }).state, state);
const socket = (state: EngineState, frame: EventFrame) => apply(state, { type: 'socket', frame });
const loaded = (communities: Community[]): EngineEvent => ({ type: 'communitiesLoaded', communities });
const thread = (postId: number, parentCommentId: number | null, comments: Comment[], hasOlder: boolean, older = false): EngineEvent => ({
  type: 'commentsLoaded',
  postId,
  parentCommentId,
  comments,
  participants: [],
  hasOlder,
  older,
});

describe('communities in the engine state (one reducer)', () => {
  it('keeps the list in the server order, with the joined ones, and the same view when nothing changed', () => {
    const select = createCommunitiesSelector();
    const empty = select(initialState());
    expect(empty).toMatchObject({ communities: [], joined: [], loaded: false, search: null });
    const state = apply(initialState(), loaded([community(2, true), community(1)]));
    const view = select(state);
    expect(view.communities.map((c) => c.id)).toEqual([2, 1]);
    expect(view.joined.map((c) => c.id)).toEqual([2]);
    expect(view.loaded).toBe(true);
    // The same answer again changes nothing: same state, same view.
    const again = apply(state, loaded([community(2, true), community(1)]));
    expect(again).toBe(state);
    expect(select(again)).toBe(view);
  });

  it('keeps only the latest search answer, and a clear drops the search', () => {
    let state = apply(
      initialState(),
      { type: 'communitySearchStarted', query: 'kopi' },
      { type: 'communitySearchStarted', query: 'kopi nusantara' },
      // The answer to the older query arrives late: ignored.
      { type: 'communitySearchAnswered', query: 'kopi', results: [community(1)] },
    );
    expect(state.communitySearch).toMatchObject({ query: 'kopi nusantara', ids: [], status: 'loading' });
    state = apply(state, { type: 'communitySearchAnswered', query: 'kopi nusantara', results: [community(3)] });
    const view = createCommunitiesSelector()(state);
    expect(view.search).toMatchObject({ query: 'kopi nusantara', status: 'loaded', error: null });
    expect(view.search?.results.map((c) => c.id)).toEqual([3]);
    const failed = apply(
      state,
      { type: 'communitySearchStarted', query: 'x' },
      {
        type: 'communitySearchFailed',
        query: 'x',
        error: { name: 'EngineError', status: 0, message: 'Network error occurred', fallback: 'Network error occurred', call: 'searchCommunities' },
      },
    );
    expect(createCommunitiesSelector()(failed).search).toMatchObject({ status: 'error', error: { message: 'Network error occurred' } });
    expect(apply(state, { type: 'communitySearchCleared' }).communitySearch).toBeNull();
  });

  it('lists a community channels in the server order', () => {
    const state = apply(initialState(), { type: 'channelsLoaded', communityId: 1, channels: [channel(12, 1), channel(11, 1)] });
    const select = createChannelsSelector(1);
    expect(select(state).channels.map((c) => c.id)).toEqual([12, 11]);
    expect(select(state).loaded).toBe(true);
    expect(createChannelsSelector(2)(state)).toEqual({ channels: [], loaded: false });
  });

  it('pages comments: the latest page, then older ones before it, oldest first', () => {
    const page = Array.from({ length: 50 }, (_, i) => comment(100 + i, 9));
    let state = apply(initialState(), thread(9, null, page, true));
    const select = createCommentsSelector(9, null);
    expect(select(state).comments[0]?.comment_id).toBe(100);
    expect(select(state).hasOlder).toBe(true);
    state = apply(state, thread(9, null, [comment(50, 9), comment(51, 9)], false, true));
    const view = select(state);
    expect(view.comments.slice(0, 3).map((c) => c.comment_id)).toEqual([50, 51, 100]);
    expect(view.comments).toHaveLength(52);
    expect(view.hasOlder).toBe(false);
  });

  it('pages without duplicates: an older page that overlaps the loaded run, or a live comment already there', () => {
    const state = apply(
      initialState(),
      thread(9, null, [comment(10, 9), comment(11, 9), comment(12, 9)], true),
      // A comment arrived live meanwhile, then the latest page is loaded again and holds it too.
      { type: 'commentAdded', comment: comment(13, 9), participants: [] },
      thread(9, null, [comment(11, 9), comment(12, 9), comment(13, 9)], true),
      // An older page overlapping the run (the server's "before" cursor met a comment twice).
      thread(9, null, [comment(8, 9), comment(9, 9), comment(10, 9), comment(11, 9)], false, true),
    );
    const ids = createCommentsSelector(9, null)(state).comments.map((c) => c.comment_id);
    expect(ids).toEqual([8, 9, 10, 11, 12, 13]);
  });

  it('channel_post_comment_added joins the loaded thread once, with its author, and counts a reply once', () => {
    const state = apply(initialState(), thread(9, null, [comment(1, 9)], false), thread(9, 1, [], false));
    const frame = {
      action: 'channel_post_comment_added' as const,
      data: { channel_id: 5, post_id: 9, comment: comment(2, 9), participants: [anna] },
    };
    const once = socket(state, frame);
    const view = createCommentsSelector(9, null)(once);
    expect(view.comments.map((c) => c.comment_id)).toEqual([1, 2]);
    expect(view.participants[7]).toEqual(anna);
    // Replayed after a reconnect: nothing changes.
    expect(socket(once, frame)).toBe(once);

    const reply = { ...frame, data: { ...frame.data, comment: comment(3, 9, 1) } };
    const replied = socket(socket(once, reply), reply);
    expect(replied.comments[1]?.replies_count).toBe(1);
    expect(createCommentsSelector(9, 1)(replied).comments.map((c) => c.comment_id)).toEqual([3]);
    // A thread that was never loaded is not started by an event (it loads whole when shown).
    const elsewhere = socket(state, { ...frame, data: { ...frame.data, post_id: 8, comment: comment(4, 8) } });
    expect(elsewhere.commentThreads[threadKey(8, null)]).toBeUndefined();
  });

  it('a comment reactions_changed replaces that comment reactions; a message one leaves comments alone', () => {
    const state = apply(initialState(), thread(9, null, [comment(1, 9)], false));
    const reactions = [{ reaction: '👍', users: [{ user_id: 7, set_at: '1700000001' }] }];
    const changed = socket(state, {
      action: 'reactions_changed',
      data: { conversation_id: 5, post_id: 9, comment_id: 1, reactions },
    });
    expect(changed.comments[1]?.reactions).toEqual(reactions);
    const same = socket(changed, {
      action: 'reactions_changed',
      data: { conversation_id: 5, post_id: 9, comment_id: 1, reactions },
    });
    expect(same).toBe(changed);
    const message = socket(state, {
      action: 'reactions_changed',
      data: { conversation_id: 5, message_id: 9, message_stid: 'msg_9', reactions },
    });
    expect(message).toBe(state);
  });

  it('commentAdded (our own answer) and the echo of the same comment add it once', () => {
    const state = apply(initialState(), thread(9, null, [], false));
    const own = apply(state, { type: 'commentAdded', comment: comment(5, 9), participants: [] });
    const echoed = apply(own, { type: 'commentAdded', comment: comment(5, 9), participants: [anna] });
    expect(createCommentsSelector(9, null)(echoed).comments.map((c) => c.comment_id)).toEqual([5]);
  });
});
