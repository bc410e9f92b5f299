import type { Message } from '../../src/protocol/entities';
import { isValidReaction } from '../../src/protocol/reactions';
import type { ServerContext } from '../context';
import { badRequest } from '../http/errors';
import { audienceOf, requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { messageReactions, serializeMessages } from './serialize';

/** Distinct reactions one user may put on one message; bounds a message's reaction list. */
export const REACTIONS_PER_USER_MAX = 10;


/**
 * Adds or removes the caller's reaction on a message they can see (spec §6: anyone may react). Both are
 * idempotent; only a real change tells the message's audience, with the full reaction list.
 */
export function setReaction(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  reaction: string,
  present: boolean,
): Message {
  const { db } = ctx;
  if (!isValidReaction(reaction)) throw badRequest('Invalid parameters provided');
  const row = requireVisibleMessage(db, conversation.id, member, messageId);
  return ctx.events.transaction(() => {
    let changed: boolean;
    if (present) {
      const mine =
        db
          .prepare<[number, number], { n: number }>(
            'SELECT COUNT(*) AS n FROM reactions WHERE message_id = ? AND user_id = ?',
          )
          .get(row.id, member.user_id)?.n ?? 0;
      const exists = db
        .prepare('SELECT 1 FROM reactions WHERE message_id = ? AND user_id = ? AND reaction = ?')
        .get(row.id, member.user_id, reaction);
      if (!exists && mine >= REACTIONS_PER_USER_MAX) {
        throw badRequest(`At most ${REACTIONS_PER_USER_MAX} reactions per message`);
      }
      changed =
        db
          .prepare('INSERT OR IGNORE INTO reactions (message_id, user_id, reaction, set_at) VALUES (?, ?, ?, ?)')
          .run(row.id, member.user_id, reaction, ctx.clock.now()).changes > 0;
    } else {
      changed =
        db
          .prepare('DELETE FROM reactions WHERE message_id = ? AND user_id = ? AND reaction = ?')
          .run(row.id, member.user_id, reaction).changes > 0;
    }
    if (changed) {
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
