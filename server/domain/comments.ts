import type { Comment, Participant } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { badRequest, forbidden, notFound } from '../http/errors';
import { memberIds } from './access';
import { epochSeconds } from './ids';
import { requireVisibleMessage, retryFingerprint } from './messages';
import type { ConversationRow, MemberRow, MessageRow, UserRow } from './rows';
import { commentReactions, imageMeta, loadConversation, serializeMessages } from './serialize';
import { MESSAGE_TEXT_MAX } from '../../src/protocol/constants';

export interface CommentRow {
  id: number;
  channel_id: number;
  post_id: number;
  parent_comment_id: number | null;
  user_id: number;
  message: string;
  client_id: number | null;
  fingerprint: string | null;
  created_at: number;
}

export const POST_NOT_FOUND = 'Post not found';

export function serializeComments(ctx: ServerContext, rows: CommentRow[]): Comment[] {
  const reactions = commentReactions(
    ctx.db,
    rows.map((r) => r.id),
  );
  const replies = ctx.db.prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM comments WHERE parent_comment_id = ?');
  return rows.map((r) => ({
    comment_id: r.id,
    post_id: r.post_id,
    parent_comment_id: r.parent_comment_id,
    channel_id: r.channel_id,
    user_id: r.user_id,
    message: r.message,
    created_at: epochSeconds(r.created_at),
    reactions: reactions.get(r.id) ?? [],
    replies_count: replies.get(r.id)?.n ?? 0,
    client_id: r.client_id,
  }));
}

/**
 * The authors of the given user ids, as the comments and posts answers list them. A user without a
 * nickname is named '' (never by phone number: channel members must not see each other's numbers).
 */
export function participants(ctx: ServerContext, userIds: Iterable<number>): Participant[] {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  return ctx.db
    .prepare<number[], UserRow>(`SELECT * FROM users WHERE id IN (${ids.map(() => '?').join(',')})`)
    .all(...ids)
    .map((u) => ({ user_id: u.id, name: u.nickname, avatar: imageMeta(ctx.db, u.image_file_id).url }));
}

/** A comment of the post, or a 404. */
export function requireComment(ctx: ServerContext, post: MessageRow, commentId: number): CommentRow {
  const row = ctx.db
    .prepare<[number, number], CommentRow>('SELECT * FROM comments WHERE id = ? AND post_id = ?')
    .get(commentId, post.id);
  if (!row) throw notFound('Comment not found');
  return row;
}

export interface CommentInput {
  channel: ConversationRow;
  member: MemberRow;
  postId: number;
  parentCommentId: number | null;
  text: string;
  /** When set, the client_id rule of sendMessage (by idempotencyKey, else content); null: always a new comment. */
  clientId: number | null;
  idempotencyKey: string | null;
}

/**
 * Adds a comment to a post of a channel the caller is a member of, bumps the post's comments_count, and
 * tells every channel member (channel_post_comment_added, and conversation_message_update with the post).
 * Used by the post_comments call and by a message sent with post_id. With a client_id the retry rule of
 * messages applies (design.md §4): a retry answers the stored comment, `created: false`, and emits nothing.
 */
export function addComment(
  ctx: ServerContext,
  input: CommentInput,
): { comment: Comment; participants: Participant[]; created: boolean } {
  const { db } = ctx;
  const { channel, member } = input;
  const text = input.text.trim();
  if (text === '' || text.length > MESSAGE_TEXT_MAX) throw badRequest('Invalid message provided');
  if (channel.group_type === 'normal') throw badRequest('Comments can only be added to channel posts');
  if (channel.disable_comments === 1) throw forbidden('Comments are turned off in this channel');
  const post = requireVisibleMessage(db, channel.id, member, input.postId, POST_NOT_FOUND);
  if (input.parentCommentId != null) requireComment(ctx, post, input.parentCommentId);
  const print =
    input.clientId != null ? retryFingerprint(input.idempotencyKey, [text, post.id, input.parentCommentId]) : null;
  if (print) {
    const existing = db
      .prepare<[number, number, number, string], CommentRow>(
        'SELECT * FROM comments WHERE channel_id = ? AND user_id = ? AND client_id = ? AND fingerprint = ?',
      )
      .get(channel.id, member.user_id, input.clientId as number, print);
    if (existing) {
      const comment = serializeComments(ctx, [existing])[0] as Comment;
      return { comment, participants: participants(ctx, [existing.user_id]), created: false };
    }
  }
  const now = ctx.clock.now();
  return ctx.events.transaction(() => {
    const id = Number(
      db
        .prepare(
          `INSERT INTO comments (channel_id, post_id, parent_comment_id, user_id, message, client_id, fingerprint,
             created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(channel.id, post.id, input.parentCommentId, member.user_id, text, input.clientId, print, now)
        .lastInsertRowid,
    );
    db.prepare('UPDATE messages SET comments_count = comments_count + 1, updated_at = ? WHERE id = ?').run(now, post.id);
    const row = db.prepare<[number], CommentRow>('SELECT * FROM comments WHERE id = ?').get(id) as CommentRow;
    const comment = serializeComments(ctx, [row])[0] as Comment;
    const people = participants(ctx, [member.user_id]);
    const members = memberIds(db, channel.id);
    ctx.events.emit(members, 'channel_post_comment_added', {
      channel_id: channel.id,
      post_id: post.id,
      comment,
      participants: people,
    });
    const updatedPost = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?').get(post.id) as MessageRow;
    const fresh = loadConversation(db, channel.id) as ConversationRow;
    ctx.events.emit(members, 'conversation_message_update', {
      conversation_id: channel.id,
      message: serializeMessages(db, fresh, [updatedPost])[0]!,
    });
    return { comment, participants: people, created: true };
  });
}
