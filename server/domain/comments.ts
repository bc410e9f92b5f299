import type { Comment, Participant } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { badRequest, forbidden, notFound } from '../http/errors';
import { memberIds } from './access';
import { epochSeconds } from './ids';
import type { ConversationRow, MessageRow, UserRow } from './rows';
import { commentReactions, imageMeta, loadConversation, serializeMessages } from './serialize';
import { MESSAGE_TEXT_MAX } from '../../src/protocol/constants';

export interface CommentRow {
  id: number;
  channel_id: number;
  post_id: number;
  parent_comment_id: number | null;
  user_id: number;
  message: string;
  created_at: number;
}

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
  }));
}

/** The authors of the given user ids, as the comments and posts answers list them. */
export function participants(ctx: ServerContext, userIds: Iterable<number>): Participant[] {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return [];
  return ctx.db
    .prepare<number[], UserRow>(`SELECT * FROM users WHERE id IN (${ids.map(() => '?').join(',')})`)
    .all(...ids)
    .map((u) => ({ user_id: u.id, name: u.nickname || u.phone_nr, avatar: imageMeta(ctx.db, u.image_file_id).url }));
}

/**
 * Adds a comment to a post of a channel the caller is a member of, bumps the post's comments_count, and
 * tells every channel member (channel_post_comment_added, and conversation_message_update with the post).
 * Used by the post_comments call and by a message sent with post_id.
 */
export function addComment(
  ctx: ServerContext,
  input: { channel: ConversationRow; postId: number; parentCommentId: number | null; userId: number; text: string },
): { comment: Comment; participants: Participant[] } {
  const { db } = ctx;
  const text = input.text.trim();
  if (text === '' || text.length > MESSAGE_TEXT_MAX) throw badRequest('Invalid message provided');
  const channel = input.channel;
  if (channel.group_type === 'normal') throw badRequest('Comments can only be added to channel posts');
  if (channel.disable_comments === 1) throw forbidden('Comments are turned off in this channel');
  const post = db
    .prepare<[number, number], MessageRow>('SELECT * FROM messages WHERE id = ? AND conversation_id = ?')
    .get(input.postId, channel.id);
  if (!post) throw notFound('Post not found');
  if (input.parentCommentId != null) {
    const parent = db
      .prepare<[number, number], { id: number }>('SELECT id FROM comments WHERE id = ? AND post_id = ?')
      .get(input.parentCommentId, post.id);
    if (!parent) throw notFound('Comment not found');
  }
  const now = ctx.clock.now();
  return ctx.events.transaction(() => {
    const id = Number(
      db
        .prepare(
          'INSERT INTO comments (channel_id, post_id, parent_comment_id, user_id, message, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(channel.id, post.id, input.parentCommentId, input.userId, text, now).lastInsertRowid,
    );
    db.prepare('UPDATE messages SET comments_count = comments_count + 1, updated_at = ? WHERE id = ?').run(now, post.id);
    const row = db.prepare<[number], CommentRow>('SELECT * FROM comments WHERE id = ?').get(id) as CommentRow;
    const comment = serializeComments(ctx, [row])[0] as Comment;
    const people = participants(ctx, [input.userId]);
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
    return { comment, participants: people };
  });
}
