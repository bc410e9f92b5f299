import type { Comment, Participant } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { list, sql } from '../db/store';
import { badRequest, forbidden, notFound } from '../http/errors';
import { memberIds } from './access';
import { epochSeconds } from './ids';
import { lockConversation, requireVisibleMessage, retryFingerprint } from './messages';
import type { ConversationRow, MemberRow, MessageRow, UserRow } from './rows';
import { commentReactions, imageMetaOf, loadConversation, serializeMessages } from './serialize';
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

export async function serializeComments(ctx: ServerContext, rows: CommentRow[]): Promise<Comment[]> {
  const ids = rows.map((r) => r.id);
  const reactions = await commentReactions(ctx.db, ids);
  // Each comment's replies, counted in one statement for all of them.
  const replies = new Map<number, number>();
  if (ids.length > 0) {
    const counts = await ctx.db.all<{ parent_comment_id: number; n: number }>(
      sql`SELECT parent_comment_id, COUNT(*) AS n FROM comments WHERE parent_comment_id IN ${list(ids)}
          GROUP BY parent_comment_id`,
    );
    for (const c of counts) replies.set(c.parent_comment_id, c.n);
  }
  return rows.map((r) => ({
    comment_id: r.id,
    post_id: r.post_id,
    parent_comment_id: r.parent_comment_id,
    channel_id: r.channel_id,
    user_id: r.user_id,
    message: r.message,
    created_at: epochSeconds(r.created_at),
    reactions: reactions.get(r.id) ?? [],
    replies_count: replies.get(r.id) ?? 0,
    client_id: r.client_id,
  }));
}

/**
 * The authors of the given user ids, as the comments and posts answers list them. A user without a
 * nickname is named '' (never by phone number: channel members must not see each other's numbers).
 */
export async function participants(ctx: ServerContext, userIds: Iterable<number>): Promise<Participant[]> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  const rows = await ctx.db.all<UserRow & { image_name: string | null }>(
    sql`SELECT u.*, f.name AS image_name FROM users u LEFT JOIN files f ON f.id = u.image_file_id
        WHERE u.id IN ${list(ids)}`,
  );
  return rows.map((u) => ({ user_id: u.id, name: u.nickname, avatar: imageMetaOf(u.image_name).url }));
}

/** A comment of the post, or a 404. */
export async function requireComment(ctx: ServerContext, post: MessageRow, commentId: number): Promise<CommentRow> {
  const row = await ctx.db.get<CommentRow>(
    sql`SELECT * FROM comments WHERE id = ${commentId} AND post_id = ${post.id}`,
  );
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
export async function addComment(
  ctx: ServerContext,
  input: CommentInput,
): Promise<{ comment: Comment; participants: Participant[]; created: boolean }> {
  const { db } = ctx;
  const { channel, member } = input;
  const text = input.text.trim();
  if (text === '' || text.length > MESSAGE_TEXT_MAX) throw badRequest('Invalid message provided');
  if (channel.group_type === 'normal') throw badRequest('Comments can only be added to channel posts');
  if (channel.disable_comments === 1) throw forbidden('Comments are turned off in this channel');
  const post = await requireVisibleMessage(db, channel.id, member, input.postId, POST_NOT_FOUND);
  if (input.parentCommentId != null) await requireComment(ctx, post, input.parentCommentId);
  const print =
    input.clientId != null ? retryFingerprint(input.idempotencyKey, [text, post.id, input.parentCommentId]) : null;
  const stored = async (): Promise<CommentRow | undefined> =>
    print === null
      ? undefined
      : db.get<CommentRow>(
          sql`SELECT * FROM comments WHERE channel_id = ${channel.id} AND user_id = ${member.user_id}
              AND client_id = ${input.clientId} AND fingerprint = ${print}`,
        );
  const retried = async (existing: CommentRow) => {
    const comment = (await serializeComments(ctx, [existing]))[0] as Comment;
    return { comment, participants: await participants(ctx, [existing.user_id]), created: false };
  };
  const now = ctx.clock.now();
  // The retry check is in the transaction, as in sendMessage: an overlapping retry finds the first one's row.
  return ctx.events.transaction(async () => {
    await lockConversation(db, channel.id);
    const existing = await stored();
    if (existing) return retried(existing);
    const inserted = await db.get<{ id: number }>(
      sql`INSERT INTO comments (channel_id, post_id, parent_comment_id, user_id, message, client_id, fingerprint,
            created_at)
          VALUES (${channel.id}, ${post.id}, ${input.parentCommentId}, ${member.user_id}, ${text}, ${input.clientId},
            ${print}, ${now})
          ON CONFLICT DO NOTHING RETURNING id`,
    );
    if (!inserted) {
      // On PostgreSQL a concurrent retry can commit between the check and the insert: answer its comment.
      const winner = await stored();
      if (!winner) throw new Error('a comment insert changed nothing and no retry explains it');
      return retried(winner);
    }
    const { id } = inserted;
    await db.run(
      sql`UPDATE messages SET comments_count = comments_count + 1, updated_at = ${now} WHERE id = ${post.id}`,
    );
    const row = (await db.get<CommentRow>(sql`SELECT * FROM comments WHERE id = ${id}`)) as CommentRow;
    const comment = (await serializeComments(ctx, [row]))[0] as Comment;
    const people = await participants(ctx, [member.user_id]);
    const members = await memberIds(db, channel.id);
    await ctx.events.emit(members, 'channel_post_comment_added', {
      channel_id: channel.id,
      post_id: post.id,
      comment,
      participants: people,
    });
    const updatedPost = (await db.get<MessageRow>(sql`SELECT * FROM messages WHERE id = ${post.id}`)) as MessageRow;
    const fresh = (await loadConversation(db, channel.id)) as ConversationRow;
    await ctx.events.emit(members, 'conversation_message_update', {
      conversation_id: channel.id,
      message: (await serializeMessages(db, fresh, [updatedPost]))[0]!,
    });
    return { comment, participants: people, created: true };
  });
}
