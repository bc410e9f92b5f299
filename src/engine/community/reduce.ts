import type { Channel, Comment, Community, Participant, Reaction } from '../../protocol/entities';
import type { EventPayloads } from '../../protocol/socket';
import type { EngineError } from '../errors';
import { mergeSortedIds, sameJson, setEntries, setEntry } from '../state/records';
import { type CommentThread, type CommunityState, type SearchState, threadKey } from './types';

/**
 * Pure updates of the communities store: each returns the same object for what did not change, so
 * observers of untouched views are not woken. Socket events are idempotent here (a replayed comment is
 * already in its thread), so a replay after a reconnect changes nothing.
 */

function putEntities<T>(record: Readonly<Record<number, T>>, items: readonly T[], id: (item: T) => number) {
  return setEntries(
    record,
    items.filter((item) => !sameJson(record[id(item)], item)).map((item) => [id(item), item] as const),
  );
}

const sameIds = (a: readonly number[] | null | undefined, b: readonly number[]) =>
  !!a && a.length === b.length && a.every((id, i) => id === b[i]);

export function communitiesLoaded(state: CommunityState, list: readonly Community[]): CommunityState {
  const communities = putEntities(state.communities, list, (c) => c.id);
  const ids = list.map((c) => c.id);
  const listIds = sameIds(state.listIds, ids) ? state.listIds : ids;
  if (communities === state.communities && listIds === state.listIds) return state;
  return { ...state, communities, listIds };
}

/** One community as the server described it (details, join, leave). */
export function communityStored(state: CommunityState, community: Community): CommunityState {
  const communities = putEntities(state.communities, [community], (c) => c.id);
  return communities === state.communities ? state : { ...state, communities };
}

export function searchStarted(state: CommunityState, query: string): CommunityState {
  const ids = state.search?.query === query ? state.search.ids : [];
  return { ...state, search: { query, ids, status: 'loading', error: null } };
}

/** The answer for `query` (results, or why it failed); ignored when a newer search or a clear replaced it. */
export function searchAnswered(
  state: CommunityState,
  query: string,
  answer: { results: readonly Community[] } | { error: EngineError | null },
): CommunityState {
  if (state.search?.query !== query) return state;
  const results = 'results' in answer ? answer.results : null;
  const search: SearchState = results
    ? { query, ids: results.map((c) => c.id), status: 'loaded', error: null }
    : { query, ids: state.search.ids, status: 'error', error: 'error' in answer ? answer.error : null };
  const communities = results ? putEntities(state.communities, results, (c) => c.id) : state.communities;
  return { ...state, communities, search };
}

export function searchCleared(state: CommunityState): CommunityState {
  return state.search === null ? state : { ...state, search: null };
}

export function channelsLoaded(state: CommunityState, communityId: number, list: readonly Channel[]): CommunityState {
  const channels = putEntities(state.channels, list, (c) => c.id);
  const ids = list.map((c) => c.id);
  const channelIds = sameIds(state.channelIds[communityId], ids) ? state.channelIds : setEntry(state.channelIds, communityId, ids);
  if (channels === state.channels && channelIds === state.channelIds) return state;
  return { ...state, channels, channelIds };
}

/** One channel as the server described it (details, join, leave). */
export function channelStored(state: CommunityState, channel: Channel): CommunityState {
  const channels = putEntities(state.channels, [channel], (c) => c.id);
  return channels === state.channels ? state : { ...state, channels };
}

export function participantsSeen(state: CommunityState, people: readonly Participant[]): CommunityState {
  const participants = putEntities(state.participants, people, (p) => p.user_id);
  return participants === state.participants ? state : { ...state, participants };
}

/**
 * A page of a thread: the latest page (`older` false) replaces the thread, keeping comments that came
 * by socket after it; an older page is put before the loaded run. `full` says whether older ones exist.
 */
export function commentsLoaded(
  state: CommunityState,
  postId: number,
  parentCommentId: number | null,
  page: readonly Comment[],
  full: boolean,
  older: boolean,
): CommunityState {
  const key = threadKey(postId, parentCommentId);
  const old = state.threads[key];
  const pageIds = [...new Set(page.map((c) => c.comment_id))].sort((a, b) => a - b);
  let thread: CommentThread;
  if (older && old) {
    thread = { ids: mergeSortedIds(old.ids, pageIds), hasOlder: full };
  } else {
    const last = pageIds[pageIds.length - 1] ?? 0;
    thread = { ids: [...pageIds, ...(old?.ids.filter((id) => id > last) ?? [])], hasOlder: full };
  }
  const comments = putEntities(state.comments, page, (c) => c.comment_id);
  const same = old && old.hasOlder === thread.hasOlder && sameIds(old.ids, thread.ids);
  const threads = same ? state.threads : setEntry(state.threads, key, thread);
  if (comments === state.comments && threads === state.threads) return state;
  return { ...state, comments, threads };
}

/**
 * A new comment (our own answer, or `channel_post_comment_added`): it joins its thread when that is
 * loaded (an unloaded thread gets it when it loads), and its parent's reply count goes up once.
 */
export function commentAdded(state: CommunityState, comment: Comment, participants: readonly Participant[]): CommunityState {
  let next = participantsSeen(state, participants);
  const known = comment.comment_id in next.comments;
  next = { ...next, comments: putEntities(next.comments, [comment], (c) => c.comment_id) };
  const key = threadKey(comment.post_id, comment.parent_comment_id);
  const thread = next.threads[key];
  if (thread && !thread.ids.includes(comment.comment_id)) {
    next = { ...next, threads: setEntry(next.threads, key, { ...thread, ids: mergeSortedIds(thread.ids, [comment.comment_id]) }) };
  }
  const parent = comment.parent_comment_id === null ? undefined : next.comments[comment.parent_comment_id];
  if (!known && parent) {
    next = { ...next, comments: setEntry(next.comments, parent.comment_id, { ...parent, replies_count: parent.replies_count + 1 }) };
  }
  return next.comments === state.comments && next.threads === state.threads && next.participants === state.participants
    ? state
    : next;
}

/** A comment as the server answered it (a reaction): replaces the loaded one. */
export function commentStored(state: CommunityState, comment: Comment): CommunityState {
  const comments = putEntities(state.comments, [comment], (c) => c.comment_id);
  return comments === state.comments ? state : { ...state, comments };
}

export function commentReactions(state: CommunityState, commentId: number, reactions: Reaction[]): CommunityState {
  const comment = state.comments[commentId];
  if (!comment || sameJson(comment.reactions, reactions)) return state;
  return { ...state, comments: setEntry(state.comments, commentId, { ...comment, reactions }) };
}

/** The socket actions that touch this store (spec §4): new comments and comment reactions. */
export function reduceCommunityFrame(
  state: CommunityState,
  frame:
    | { action: 'channel_post_comment_added'; data: EventPayloads['channel_post_comment_added'] }
    | { action: 'reactions_changed'; data: EventPayloads['reactions_changed'] },
): CommunityState {
  if (frame.action === 'channel_post_comment_added') {
    return commentAdded(state, frame.data.comment, frame.data.participants);
  }
  return frame.data.comment_id === undefined ? state : commentReactions(state, frame.data.comment_id, frame.data.reactions);
}
