import type { Channel, Comment, Message } from '../../protocol/entities';
import type { MessageSearchHit } from '../contract/types';

/**
 * One indexed item: what the index and the `search` store hold of a message, post or comment. Where it is
 * and when are a hit's own fields (api.ts).
 */
export interface SearchDoc
  extends Pick<MessageSearchHit, 'kind' | 'conversationId' | 'channelId' | 'communityId' | 'postId' | 'id' | 'createdAt'> {
  /** `m:<id>` for messages and posts (both are messages, one id space), `c:<id>` for comments. */
  key: string;
  /** A message's stid (a delete may name it alone); null for comments. */
  stid: string | null;
  userId: number;
  text: string;
  /** Its chat or channel (`groupOf`): history is kept and dropped per group. Not in version 5's records. */
  group: string;
}

/** A document as the `search` store keeps it: with its number in the posting index (none yet: not indexed). */
export interface StoredDoc extends SearchDoc {
  docNo?: number;
}

export const messageKey = (id: number) => `m:${id}`;
export const commentKey = (id: number) => `c:${id}`;

/** The chat or channel a document belongs to: history is kept (and trimmed) per group. */
export const groupOf = (doc: Pick<SearchDoc, 'conversationId' | 'channelId'>): string =>
  doc.conversationId !== null ? `chat:${doc.conversationId}` : `channel:${doc.channelId ?? 0}`;

/** The chat or channel's id, as a chat's own search asks for it (`conversationId`). */
export const chatOf = (doc: Pick<SearchDoc, 'conversationId' | 'channelId'>): number => doc.conversationId ?? doc.channelId ?? 0;

const grouped = (doc: Omit<SearchDoc, 'group'>): SearchDoc => ({ ...doc, group: groupOf(doc) });

/**
 * A group's documents in the store's indexes: the `chat` or `channel` index, every time and id of its id
 * (`[]` sorts after every number and string, so `[id, []]` is past the group's last key).
 */
export function groupRange(group: string): { index: 'chat' | 'channel'; lower: [number]; upper: [number, []] } {
  const [kind, id] = group.split(':');
  const n = Number(id);
  return { index: kind === 'channel' ? 'channel' : 'chat', lower: [n], upper: [n, []] };
}

const epochMs = (seconds: string) => Math.round(Number(seconds) * 1000) || 0;

/**
 * A message or post as indexed, or null when it has no text worth finding (an attachment alone, a system
 * event, a message deleted for everybody). A message of a known channel is a post.
 */
export function messageDoc(message: Message, channel: Channel | undefined): SearchDoc | null {
  if (message.type !== 'text' || message.deleted === true || message.message.trim() === '') return null;
  return grouped({
    key: messageKey(message.id),
    kind: channel ? 'post' : 'message',
    conversationId: channel ? null : message.conversation_id,
    channelId: channel ? channel.id : null,
    communityId: channel ? channel.community_id : null,
    postId: null,
    id: message.id,
    stid: message.stid,
    userId: message.user_id,
    text: message.message,
    createdAt: epochMs(message.created_at),
  });
}

export function commentDoc(comment: Comment, channel: Channel | undefined): SearchDoc | null {
  if (comment.message.trim() === '') return null;
  return grouped({
    key: commentKey(comment.comment_id),
    kind: 'comment',
    conversationId: null,
    channelId: comment.channel_id,
    communityId: channel?.community_id ?? null,
    postId: comment.post_id,
    id: comment.comment_id,
    stid: null,
    userId: comment.user_id,
    text: comment.message,
    createdAt: epochMs(comment.created_at),
  });
}

export const sameDoc = (a: SearchDoc, b: SearchDoc): boolean =>
  a.text === b.text &&
  a.kind === b.kind &&
  a.createdAt === b.createdAt &&
  a.conversationId === b.conversationId &&
  a.channelId === b.channelId &&
  a.communityId === b.communityId &&
  a.postId === b.postId &&
  a.userId === b.userId;
