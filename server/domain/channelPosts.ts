import type { CommentsAnswer, PostsAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { notFound } from '../http/errors';
import type { CommentRow } from './comments';
import { participants, serializeComments } from './comments';
import { type PageQuery, pageRows } from './channelPaging';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

const visibleArgs = (channel: ConversationRow, member: MemberRow) => [
  channel.id,
  member.user_id,
  member.user_id,
  member.is_admin,
];

/** A post of the channel that the member may see, or a 404. */
export function requirePost(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  postId: number,
): MessageRow {
  const row = ctx.db
    .prepare<number[], MessageRow>(`SELECT m.* FROM messages m WHERE ${visibleMessagesSql('m')} AND m.id = ?`)
    .get(...visibleArgs(channel, member), postId);
  if (!row) throw notFound('Post not found');
  return row;
}

export function requireComment(ctx: ServerContext, post: MessageRow, commentId: number): CommentRow {
  const row = ctx.db
    .prepare<[number, number], CommentRow>('SELECT * FROM comments WHERE id = ? AND post_id = ?')
    .get(commentId, post.id);
  if (!row) throw notFound('Comment not found');
  return row;
}

export function listPosts(ctx: ServerContext, channel: ConversationRow, member: MemberRow, q: PageQuery): PostsAnswer {
  const rows = pageRows<MessageRow>(
    ctx.db,
    `SELECT m.* FROM messages m WHERE ${visibleMessagesSql('m')}`,
    'm.id',
    visibleArgs(channel, member),
    q,
  );
  return {
    posts: serializeMessages(ctx.db, channel, rows),
    participants: participants(
      ctx,
      rows.map((r) => r.user_id),
    ),
  };
}

/**
 * The comments of a post: its top-level comments, or with `parentCommentId` the replies to that
 * comment (each comment carries replies_count so the client knows where a thread continues).
 */
export function listComments(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  input: { postId: number; parentCommentId: number | undefined; page: PageQuery },
): CommentsAnswer {
  const post = requirePost(ctx, channel, member, input.postId);
  if (input.parentCommentId !== undefined) requireComment(ctx, post, input.parentCommentId);
  const byParent = input.parentCommentId === undefined ? 'c.parent_comment_id IS NULL' : 'c.parent_comment_id = ?';
  const args = input.parentCommentId === undefined ? [post.id] : [post.id, input.parentCommentId];
  const rows = pageRows<CommentRow>(
    ctx.db,
    `SELECT c.* FROM comments c WHERE c.post_id = ? AND ${byParent}`,
    'c.id',
    args,
    input.page,
  );
  return {
    comments: serializeComments(ctx, rows),
    participants: participants(
      ctx,
      rows.map((r) => r.user_id),
    ),
  };
}
