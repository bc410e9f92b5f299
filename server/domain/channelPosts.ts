import type { CommentsAnswer, PostsAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import type { CommentRow } from './comments';
import { participants, POST_NOT_FOUND, requireComment, serializeComments } from './comments';
import { type PageQuery, pageRows } from './channelPaging';
import { requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

const visibleArgs = (channel: ConversationRow, member: MemberRow) => [
  channel.id,
  member.user_id,
  member.user_id,
  member.is_admin,
];

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
  const post = requireVisibleMessage(ctx.db, channel.id, member, input.postId, POST_NOT_FOUND);
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
