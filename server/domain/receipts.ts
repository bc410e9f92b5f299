import type { ReceiptStatus } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { epochSeconds } from './ids';
import { requireVisibleMessage } from './messages';
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
export function recordReceipt(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  read: boolean,
): ReceiptStatus[] {
  const { db } = ctx;
  const message = requireVisibleMessage(db, conversation.id, member, messageId);
  if (message.user_id === member.user_id) throw badRequest('Receipts are only sent for messages of other users');
  const types: ReceiptType[] = read ? ['delivered', 'read'] : ['delivered'];
  const now = ctx.clock.now();
  return ctx.events.transaction(() => {
    const insert = db.prepare('INSERT OR IGNORE INTO receipts (message_id, user_id, type, at) VALUES (?, ?, ?, ?)');
    for (const type of types) {
      if (insert.run(message.id, member.user_id, type, now).changes === 0) continue;
      ctx.events.emit([message.user_id], 'message_dlr2', {
        conversation_id: conversation.id,
        message_id: message.id,
        user_id: member.user_id,
        type,
      });
      ctx.events.emit([member.user_id], 'self_dlr_sync', {
        conversation_id: conversation.id,
        message_id: message.id,
        type,
      });
    }
    if (read) {
      db.prepare(
        `UPDATE conversation_members SET last_read_message_id = MAX(last_read_message_id, ?)
         WHERE conversation_id = ? AND user_id = ?`,
      ).run(message.id, conversation.id, member.user_id);
    }
    return db
      .prepare<[number, number], ReceiptRow>(
        'SELECT message_id, user_id, type, at FROM receipts WHERE message_id = ? AND user_id = ? ORDER BY type',
      )
      .all(message.id, member.user_id)
      .map(toStatus);
  });
}

/** Receipts others gave on the caller's latest own messages (that the caller has not hidden). */
export function receiptsOnOwnMessages(db: Db, conversation: ConversationRow, member: MemberRow): ReceiptStatus[] {
  return db
    .prepare<number[], ReceiptRow>(
      `SELECT r.message_id, r.user_id, r.type, r.at FROM receipts r
       WHERE r.message_id IN (
         SELECT m.id FROM messages m WHERE ${visibleMessagesSql('m')} AND m.user_id = ? ORDER BY m.id DESC LIMIT ?
       )
       ORDER BY r.message_id, r.user_id, r.type`,
    )
    .all(conversation.id, member.user_id, member.user_id, member.is_admin, member.user_id, DLRS_MESSAGE_LIMIT)
    .map(toStatus);
}
