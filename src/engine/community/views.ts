import type { Message, Participant } from '../../protocol/entities';
import type { ChannelsView, CommentsView, CommunitiesView, OutboxEntry, ParticipantsById, PostsView } from '../contract/types';
import { type EngineState, threadKey } from '../state/types';

/*
 * The views' types are the contract's (contract/types.ts); this file holds their memoised selectors over the
 * engine's one state. Every state change reaches them (a message in a chat too), so each first checks whether
 * the slices it reads are the very ones it last saw, and only then builds and compares a view: an unchanged
 * view is the same object, row for row, which the stream codec's small crossings rely on.
 */

const pick = <T>(record: Readonly<Record<number, T>>, ids: readonly number[]): T[] =>
  ids.map((id) => record[id]).filter((v): v is T => v !== undefined);

const sameList = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** A memoised selector: the same view object while the slices it reads are unchanged. */
export function createCommunitiesSelector(): (state: EngineState) => CommunitiesView {
  let last: CommunitiesView | null = null;
  // Only the slices read, never the whole state: a kept state would keep every message it held alive.
  let seen: Pick<EngineState, 'communities' | 'communityIds' | 'communitySearch'> | null = null;
  return (state) => {
    if (
      last &&
      seen &&
      seen.communities === state.communities &&
      seen.communityIds === state.communityIds &&
      seen.communitySearch === state.communitySearch
    ) {
      return last;
    }
    seen = { communities: state.communities, communityIds: state.communityIds, communitySearch: state.communitySearch };
    const communities = pick(state.communities, state.communityIds ?? []);
    const found = state.communitySearch;
    const search = found
      ? { query: found.query, results: pick(state.communities, found.ids), status: found.status, error: found.error }
      : null;
    const view: CommunitiesView = {
      communities,
      joined: communities.filter((c) => c.is_member),
      loaded: state.communityIds !== null,
      search,
    };
    if (
      last &&
      last.loaded === view.loaded &&
      sameList(last.communities, view.communities) &&
      (last.search === view.search ||
        (last.search !== null &&
          view.search !== null &&
          last.search.query === view.search.query &&
          last.search.status === view.search.status &&
          last.search.error === view.search.error &&
          sameList(last.search.results, view.search.results)))
    ) {
      return last;
    }
    last = view;
    return view;
  };
}

export function createChannelsSelector(communityId: number): (state: EngineState) => ChannelsView {
  let last: ChannelsView | null = null;
  let seen: Pick<EngineState, 'channels' | 'channelIds'> | null = null;
  return (state) => {
    if (last && seen && seen.channels === state.channels && seen.channelIds === state.channelIds) return last;
    seen = { channels: state.channels, channelIds: state.channelIds };
    const ids = state.channelIds[communityId];
    const view: ChannelsView = { channels: pick(state.channels, ids ?? []), loaded: ids !== undefined };
    if (last && last.loaded === view.loaded && sameList(last.channels, view.channels)) return last;
    last = view;
    return view;
  };
}

/** The participants a list of items names (their authors), so an unrelated author does not wake a view. */
function authors(state: EngineState, userIds: Iterable<number>): ParticipantsById {
  const result: Record<number, Participant> = {};
  for (const id of userIds) {
    const p = state.participants[id];
    if (p) result[id] = p;
  }
  return result;
}

const sameAuthors = (a: ParticipantsById, b: ParticipantsById) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[Number(k)] === b[Number(k)]);
};

export function createPostsSelector(): (
  state: EngineState,
  window: { messages: readonly Message[]; hasOlder: boolean; loaded: boolean },
) => PostsView {
  let last: PostsView | null = null;
  let seen: { participants: EngineState['participants']; window: unknown } | null = null;
  return (state, window) => {
    if (last && seen && seen.participants === state.participants && seen.window === window) return last;
    seen = { participants: state.participants, window };
    const participants = authors(state, new Set(window.messages.map((m) => m.user_id)));
    const view: PostsView = { posts: window.messages, participants, hasOlder: window.hasOlder, loaded: window.loaded };
    if (
      last &&
      last.posts === view.posts &&
      last.hasOlder === view.hasOlder &&
      last.loaded === view.loaded &&
      sameAuthors(last.participants, view.participants)
    ) {
      return last;
    }
    last = view;
    return view;
  };
}

export function createCommentsSelector(
  postId: number,
  parentCommentId: number | null,
): (state: EngineState, outbox?: readonly OutboxEntry[]) => CommentsView {
  const key = threadKey(postId, parentCommentId);
  let last: CommentsView | null = null;
  let seen: { state: Pick<EngineState, 'commentThreads' | 'comments' | 'participants'>; outbox: readonly OutboxEntry[] } | null =
    null;
  return (state, outbox = []) => {
    if (
      last &&
      seen &&
      seen.outbox === outbox &&
      seen.state.commentThreads === state.commentThreads &&
      seen.state.comments === state.comments &&
      seen.state.participants === state.participants
    ) {
      return last;
    }
    seen = { state: { commentThreads: state.commentThreads, comments: state.comments, participants: state.participants }, outbox };
    const thread = state.commentThreads[key];
    const comments = pick(state.comments, thread?.ids ?? []);
    const pending = outbox.filter((e) => e.comment?.postId === postId && e.comment.parentCommentId === parentCommentId);
    const view: CommentsView = {
      comments,
      participants: authors(state, new Set(comments.map((c) => c.user_id))),
      hasOlder: thread?.hasOlder ?? false,
      loaded: thread !== undefined,
      pending,
    };
    if (
      last &&
      last.loaded === view.loaded &&
      last.hasOlder === view.hasOlder &&
      sameList(last.comments, view.comments) &&
      sameAuthors(last.participants, view.participants) &&
      sameList(last.pending, view.pending)
    ) {
      return last;
    }
    last = view;
    return view;
  };
}
