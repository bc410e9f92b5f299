import type { ReceiptStatus } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { type Store, sql } from '../db/store';
import { badRequest } from '../http/errors';
import { epochSeconds } from './ids';
import { MESSAGE_NOT_FOUND, requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow } from './rows';
import { visibleMessagesSql } from './visibility';

/** GET /dlrs covers the caller's latest this-many own messages of the conversation. */
export const DLRS_MESSAGE_LIMIT = 100;

type ReceiptType = ReceiptStatus['type'];

interface ReceiptRow {
  message_id: number;
  user_id: number;
  type: ReceiptType;
  at: number;
}

const toStatus = (r: ReceiptRow): ReceiptStatus => ({
  message_id: r.message_id,
  user_id: r.user_id,
  type: r.type,
  at: epochSeconds(r.at),
});

/**
 * Records a delivered (or read, which implies delivered) receipt by `member` for another user's message.
 * Each (message, user, type) is stored once; only a receipt that is new tells the sender (message_dlr2)
 * and the caller's other tabs and devices (self_dlr_sync), one event per new type. A read also moves the
 * caller's read marker, which the unread count is measured from. Answers the caller's receipts on the message.
 */
export async function recordReceipt(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  read: boolean,
): Promise<ReceiptStatus[]> {
  const { db } = ctx;
  // A tombstone too: the client reads a chat by its latest message, which may be one deleted for everybody.
  const message = await requireVisibleMessage(db, conversation.id, member, messageId, MESSAGE_NOT_FOUND, 'allow');
  if (message.user_id === member.user_id) throw badRequest('Receipts are only sent for messages of other users');
  const types: ReceiptType[] = read ? ['delivered', 'read'] : ['delivered'];
  const now = ctx.clock.now();
  return ctx.events.transaction(async () => {
    // Both users' event counters at once, in id order: two people reading each other's messages would
    // otherwise take them in opposite orders and wait on each other (PostgreSQL).
    await ctx.events.lockUsers([message.user_id, member.user_id]);
    for (const type of types) {
      const added = await db.run(
        sql`INSERT INTO receipts (message_id, user_id, type, at)
            VALUES (${message.id}, ${member.user_id}, ${type}, ${now})
            ON CONFLICT DO NOTHING`,
      );
      if (added === 0) continue;
      await ctx.events.emit([message.user_id], 'message_dlr2', {
        conversation_id: conversation.id,
        message_id: message.id,
        user_id: member.user_id,
        type,
      });
      await ctx.events.emit([member.user_id], 'self_dlr_sync', {
        conversation_id: conversation.id,
        message_id: message.id,
        type,
      });
    }
    if (read) {
      // The marker only moves forward (an older message read late leaves it where it is).
      await db.run(
        sql`UPDATE conversation_members SET last_read_message_id = ${message.id}
            WHERE conversation_id = ${conversation.id} AND user_id = ${member.user_id}
              AND last_read_message_id < ${message.id}`,
      );
    }
    const rows = await db.all<ReceiptRow>(
      sql`SELECT message_id, user_id, type, at FROM receipts
          WHERE message_id = ${message.id} AND user_id = ${member.user_id} ORDER BY type`,
    );
    return rows.map(toStatus);
  });
}

/** Receipts others gave on the caller's latest own messages (that the caller has not hidden). */
export async function receiptsOnOwnMessages(
  db: Store,
  conversation: ConversationRow,
  member: MemberRow,
): Promise<ReceiptStatus[]> {
  const visible = visibleMessagesSql('m', conversation.id, member.user_id, member.is_admin === 1);
  const rows = await db.all<ReceiptRow>(
    sql`SELECT r.message_id, r.user_id, r.type, r.at FROM receipts r
        WHERE r.message_id IN (
          SELECT m.id FROM messages m WHERE ${visible} AND m.user_id = ${member.user_id}
          ORDER BY m.id DESC LIMIT ${DLRS_MESSAGE_LIMIT}
        )
        ORDER BY r.message_id, r.user_id, r.type`,
  );
  return rows.map(toStatus);
}
