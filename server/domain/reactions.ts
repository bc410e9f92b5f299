import type { Message } from '../../src/protocol/entities';
import { isValidReaction } from '../../src/protocol/reactions';
import type { ServerContext } from '../context';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { audienceOf, MESSAGE_NOT_FOUND, requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { messageReactions, serializeMessages } from './serialize';

/**
 * Distinct reactions one user may put on one message, post or comment; bounds a reaction list.
 */
export const REACTIONS_PER_USER_MAX = 10;

/** The two reaction tables: one for messages (posts included), one for comments. */
const TABLES = {
  message: { table: 'reactions', key: 'message_id', label: 'message' },
  comment: { table: 'comment_reactions', key: 'comment_id', label: 'comment' },
} as const;

/**
 * Adds (`present`) or removes one user's reaction on a message or a comment, in the caller's transaction.
 * Both are idempotent; adding a new reaction past REACTIONS_PER_USER_MAX is a 400. Returns whether a row
 * changed, so the caller tells others only about a real change.
 */
export function toggleReaction(
  db: Db,
  target: { kind: keyof typeof TABLES; id: number },
  userId: number,
  reaction: string,
  present: boolean,
  now: number,
): boolean {
  const { table, key, label } = TABLES[target.kind];
  if (!present) {
    return (
      db.prepare(`DELETE FROM ${table} WHERE ${key} = ? AND user_id = ? AND reaction = ?`).run(target.id, userId, reaction)
        .changes > 0
    );
  }
  const exists = db
    .prepare(`SELECT 1 FROM ${table} WHERE ${key} = ? AND user_id = ? AND reaction = ?`)
    .get(target.id, userId, reaction);
  if (exists) return false;
  const mine =
    db
      .prepare<[number, number], { n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE ${key} = ? AND user_id = ?`)
      .get(target.id, userId)?.n ?? 0;
  if (mine >= REACTIONS_PER_USER_MAX) {
    throw badRequest(`At most ${REACTIONS_PER_USER_MAX} reactions per ${label}`);
  }
  db.prepare(`INSERT INTO ${table} (${key}, user_id, reaction, set_at) VALUES (?, ?, ?, ?)`).run(
    target.id,
    userId,
    reaction,
    now,
  );
  return true;
}

/**
 * Adds or removes the caller's reaction on a message (or channel post) they can see (spec §6: anyone
 * may react). Both are idempotent; only a real change tells the message's audience, with the full
 * reaction list. `notFound` is the 404's text ("Post not found" for the channel calls).
 */
export function setReaction(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  reaction: string,
  present: boolean,
  notFound: string = MESSAGE_NOT_FOUND,
): Message {
  const { db } = ctx;
  if (!isValidReaction(reaction)) throw badRequest('Invalid parameters provided');
  const row = requireVisibleMessage(db, conversation.id, member, messageId, notFound);
  return ctx.events.transaction(() => {
    const target = { kind: 'message', id: row.id } as const;
    if (toggleReaction(db, target, member.user_id, reaction, present, ctx.clock.now())) {
      ctx.events.emit(audienceOf(db, row), 'reactions_changed', {
        conversation_id: conversation.id,
        message_id: row.id,
        message_stid: row.stid,
        reactions: messageReactions(db, [row.id]).get(row.id) ?? [],
      });
    }
    const fresh = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?').get(row.id) as MessageRow;
    return serializeMessages(db, conversation, [fresh])[0] as Message;
  });
}
