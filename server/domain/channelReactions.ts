import type { Comment } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { memberIds } from './access';
import { POST_NOT_FOUND, requireComment, serializeComments } from './comments';
import { requireVisibleMessage } from './messages';
import { toggleReaction } from './reactions';
import type { ConversationRow, MemberRow } from './rows';
import { commentReactions } from './serialize';

/**
 * Adds (`on`) or removes the caller's reaction on a comment of a post, with the per-user cap of message
 * reactions. Only a real change is told to the channel's members, as a comment `reactions_changed`
 * (post_id and comment_id, no message_id: the reactions are the comment's, not the post's). Post
 * reactions need nothing of their own: they are message reactions (setReaction in ./reactions).
 */
export async function setCommentReaction(
  ctx: ServerContext,
  channel: ConversationRow,
  member: MemberRow,
  input: { postId: number; commentId: number; reaction: string; on: boolean },
): Promise<Comment> {
  const { db } = ctx;
  const post = await requireVisibleMessage(db, channel.id, member, input.postId, POST_NOT_FOUND);
  const row = await requireComment(ctx, post, input.commentId);
  return ctx.events.transaction(async () => {
    const target = { kind: 'comment', id: row.id } as const;
    if (await toggleReaction(db, target, member.user_id, input.reaction, input.on, ctx.clock.now())) {
      await ctx.events.emit(await memberIds(db, channel.id), 'reactions_changed', {
        conversation_id: channel.id,
        post_id: post.id,
        comment_id: row.id,
        reactions: (await commentReactions(db, [row.id])).get(row.id) ?? [],
      });
    }
    return (await serializeComments(ctx, [row]))[0] as Comment;
  });
}
