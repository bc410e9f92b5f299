import type { CommentsAnswer, PostsAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import type { CommentRow } from './comments';
import { participants, POST_NOT_FOUND, requireComment, serializeComments } from './comments';
import { type PageQuery, pageRows } from './channelPaging';
import { requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

export async function listPosts(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  q: PageQuery,
): Promise<PostsAnswer> {
  const visible = visibleMessagesSql('m', channel.id, member.user_id, member.is_admin === 1);
  const rows = await pageRows<MessageRow>(ctx.db, sql`SELECT m.* FROM messages m WHERE ${visible}`, 'm.id', q);
  return {
    posts: await serializeMessages(ctx.db, channel, rows),
    participants: await participants(
      ctx,
      rows.map((r) => r.user_id),
    ),
  };
}

/**
 * The comments of a post: its top-level comments, or with `parentCommentId` the replies to that
 * comment (each comment carries replies_count so the client knows where a thread continues).
 */
export async function listComments(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  input: { postId: number; parentCommentId: number | undefined; page: PageQuery },
): Promise<CommentsAnswer> {
  const post = await requireVisibleMessage(ctx.db, channel.id, member, input.postId, POST_NOT_FOUND);
  if (input.parentCommentId !== undefined) await requireComment(ctx, post, input.parentCommentId);
  const byParent =
    input.parentCommentId === undefined
      ? sql`c.parent_comment_id IS NULL`
      : sql`c.parent_comment_id = ${input.parentCommentId}`;
  const rows = await pageRows<CommentRow>(
    ctx.db,
    sql`SELECT c.* FROM comments c WHERE c.post_id = ${post.id} AND ${byParent}`,
    'c.id',
    input.page,
  );
  return {
    comments: await serializeComments(ctx, rows),
    participants: await participants(
      ctx,
      rows.map((r) => r.user_id),
    ),
  };
}
