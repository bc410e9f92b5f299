import type { Comment, Participant, Reaction } from '../../protocol/entities';
import { participantsSeen, putEntities, sameIds } from './communities';
import { mergeSortedIds, sameJson, setEntry } from './records';
import { type CommentThread, type EngineState, threadKey } from './types';

/*
 * Comment threads (spec §3): loaded pages, our own comments and the socket's. Socket events are idempotent
 * here (a replayed comment is already in its thread), so a replay after a reconnect changes nothing.
 */

/**
 * A page of a thread: the latest page (`older` false) replaces the thread, keeping comments that came
 * by socket after it; an older page is put before the loaded run. `hasOlder` says whether older ones exist.
 */
export function commentsLoaded(
  state: EngineState,
  postId: number,
  parentCommentId: number | null,
  page: readonly Comment[],
  hasOlder: boolean,
  older: boolean,
): EngineState {
  const key = threadKey(postId, parentCommentId);
  const old = state.commentThreads[key];
  const pageIds = [...new Set(page.map((c) => c.comment_id))].sort((a, b) => a - b);
  let thread: CommentThread;
  if (older && old) {
    thread = { ids: mergeSortedIds(old.ids, pageIds), hasOlder };
  } else {
    const last = pageIds[pageIds.length - 1] ?? 0;
    thread = { ids: [...pageIds, ...(old?.ids.filter((id) => id > last) ?? [])], hasOlder };
  }
  const comments = putEntities(state.comments, page, (c) => c.comment_id);
  const same = old && old.hasOlder === thread.hasOlder && sameIds(old.ids, thread.ids);
  const commentThreads = same ? state.commentThreads : setEntry(state.commentThreads, key, thread);
  if (comments === state.comments && commentThreads === state.commentThreads) return state;
  return { ...state, comments, commentThreads };
}

/**
 * A new comment (our own answer, or `channel_post_comment_added`): it joins its thread when that is
 * loaded (an unloaded thread gets it when it loads), and its parent's reply count goes up once.
 */
export function commentAdded(state: EngineState, comment: Comment, participants: readonly Participant[]): EngineState {
  let next = participantsSeen(state, participants);
  const known = comment.comment_id in next.comments;
  next = { ...next, comments: putEntities(next.comments, [comment], (c) => c.comment_id) };
  const key = threadKey(comment.post_id, comment.parent_comment_id);
  const thread = next.commentThreads[key];
  if (thread && !thread.ids.includes(comment.comment_id)) {
    const ids = mergeSortedIds(thread.ids, [comment.comment_id]);
    next = { ...next, commentThreads: setEntry(next.commentThreads, key, { ...thread, ids }) };
  }
  const parent = comment.parent_comment_id === null ? undefined : next.comments[comment.parent_comment_id];
  if (!known && parent) {
    next = { ...next, comments: setEntry(next.comments, parent.comment_id, { ...parent, replies_count: parent.replies_count + 1 }) };
  }
  return next.comments === state.comments && next.commentThreads === state.commentThreads && next.participants === state.participants
    ? state
    : next;
}

/** A comment as the server answered it (a reaction): replaces the loaded one. */
export function commentStored(state: EngineState, comment: Comment): EngineState {
  const comments = putEntities(state.comments, [comment], (c) => c.comment_id);
  return comments === state.comments ? state : { ...state, comments };
}

/** A comment's `reactions_changed`. */
export function commentReactions(state: EngineState, commentId: number, reactions: Reaction[]): EngineState {
  const comment = state.comments[commentId];
  if (!comment || sameJson(comment.reactions, reactions)) return state;
  return { ...state, comments: setEntry(state.comments, commentId, { ...comment, reactions }) };
}
