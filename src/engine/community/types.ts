import type { Channel, Comment, Community, Participant } from '../../protocol/entities';
import type { EngineError } from '../errors';

/**
 * The communities store (spec §3): communities, channels, post and comment authors, and the loaded
 * comment threads. Posts are messages of their channel and live in the engine's message state.
 * Normalised by id and plain data, like EngineState; updated only by the pure functions of reduce.ts.
 */
export interface CommunityState {
  communities: Readonly<Record<number, Community>>;
  /** The community list as last refreshed (joined and not), in the server's order; null until loaded. */
  listIds: readonly number[] | null;
  /** The explore search (spec §5: an empty query clears it); not persisted. */
  search: SearchState | null;
  channels: Readonly<Record<number, Channel>>;
  /** Each community's channel ids as last loaded, in the server's order. */
  channelIds: Readonly<Record<number, readonly number[]>>;
  /** Authors of posts and comments, by user id (spec §3 participants). */
  participants: Readonly<Record<number, Participant>>;
  /** Loaded comment threads by `threadKey` (not persisted: they reload when shown). */
  threads: Readonly<Record<string, CommentThread>>;
  comments: Readonly<Record<number, Comment>>;
}

export interface SearchState {
  query: string;
  ids: readonly number[];
  status: 'loading' | 'loaded' | 'error';
  error: EngineError | null;
}

/** One loaded run of a post's comments (or a comment's replies): ascending comment ids. */
export interface CommentThread {
  ids: readonly number[];
  hasOlder: boolean;
}

/** A post's top-level comments are thread `${postId}:0`; a comment's replies `${postId}:${commentId}`. */
export const threadKey = (postId: number, parentCommentId: number | null | undefined): string =>
  `${postId}:${parentCommentId ?? 0}`;

export function initialCommunityState(): CommunityState {
  return {
    communities: {},
    listIds: null,
    search: null,
    channels: {},
    channelIds: {},
    participants: {},
    threads: {},
    comments: {},
  };
}

/** What is kept across reloads: everything but the search and the comment threads. */
export type PersistedCommunityState = Pick<
  CommunityState,
  'communities' | 'listIds' | 'channels' | 'channelIds' | 'participants'
>;
