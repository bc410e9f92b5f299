import type { Comment, Message } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { memberIds } from './access';
import { requireComment, requirePost } from './channelPosts';
import { serializeComments } from './comments';
import type { ConversationRow, MemberRow } from './rows';
import { commentReactions, serializeMessages } from './serialize';

/**
 * Adds (`on`) or removes the caller's reaction on a post. Only a real change is told to the channel's
 * members; repeating an add or removing a reaction that is not there answers the post unchanged.
 */
export function setPostReaction(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  input: { postId: number; reaction: string; on: boolean },
): Message {
  const { db } = ctx;
  const post = requirePost(ctx, channel, member, input.postId);
  return ctx.events.transaction(() => {
    const change = input.on
      ? db
          .prepare('INSERT OR IGNORE INTO reactions (message_id, user_id, reaction, set_at) VALUES (?, ?, ?, ?)')
          .run(post.id, member.user_id, input.reaction, ctx.clock.now())
      : db
          .prepare('DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND reaction = ?')
          .run(post.id, member.user_id, input.reaction);
    const message = serializeMessages(db, channel, [post])[0] as Message;
    if (change.changes > 0) {
      ctx.events.emit(memberIds(db, channel.id), 'reactions_changed', {
        conversation_id: channel.id,
        message_id: post.id,
        message_stid: post.stid,
        reactions: message.reactions,
      });
    }
    return message;
  });
}

/** The same for a comment of a post; the event names the post and carries `comment_id`. */
export function setCommentReaction(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  input: { postId: number; commentId: number; reaction: string; on: boolean },
): Comment {
  const { db } = ctx;
  const post = requirePost(ctx, channel, member, input.postId);
  const row = requireComment(ctx, post, input.commentId);
  return ctx.events.transaction(() => {
    const change = input.on
      ? db
          .prepare(
            'INSERT OR IGNORE INTO comment_reactions (comment_id, user_id, reaction, set_at) VALUES (?, ?, ?, ?)',
          )
          .run(row.id, member.user_id, input.reaction, ctx.clock.now())
      : db
          .prepare('DELETE FROM comment_reactions WHERE comment_id = ? AND user_id = ? AND reaction = ?')
          .run(row.id, member.user_id, input.reaction);
    if (change.changes > 0) {
      ctx.events.emit(memberIds(db, channel.id), 'reactions_changed', {
        conversation_id: channel.id,
        message_id: post.id,
        message_stid: post.stid,
        reactions: commentReactions(db, [row.id]).get(row.id) ?? [],
        comment_id: row.id,
      });
    }
    return serializeComments(ctx, [row])[0] as Comment;
  });
}
