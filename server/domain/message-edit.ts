import type { Message } from '../../src/protocol/entities';
import { EDIT_WINDOW_MS, MESSAGE_TEXT_MAX } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { badRequest, forbidden } from '../http/errors';
import { audienceOf, requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';

/**
 * Edits the text of the caller's own message within the edit window (spec §4 "Editing", §6 "Edit") and
 * tells the message's audience. An edit that leaves the text as it was changes nothing and emits nothing.
 */
export function editMessage(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  rawText: string,
): Message {
  const { db } = ctx;
  if (conversation.is_demo === 1) throw forbidden('This is a demo chat');
  const row = requireVisibleMessage(db, conversation.id, member, messageId);
  if (row.type === 'system') throw forbidden('System messages cannot be edited');
  if (row.user_id !== member.user_id) throw forbidden('You can only edit your own messages');
  const now = ctx.clock.now();
  if (now - row.created_at > EDIT_WINDOW_MS) throw forbidden('This message is too old to edit');
  const text = rawText.trim();
  if (text === '') throw badRequest('A message cannot be empty');
  if (text.length > MESSAGE_TEXT_MAX) throw badRequest(`A message can be at most ${MESSAGE_TEXT_MAX} characters`);
  if (text === row.message) return serializeMessages(db, conversation, [row])[0] as Message;
  return ctx.events.transaction(() => {
    db.prepare('UPDATE messages SET message = ?, edited_at = ?, updated_at = ? WHERE id = ?').run(
      text,
      now,
      now,
      row.id,
    );
    const edited = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?').get(row.id) as MessageRow;
    const message = serializeMessages(db, conversation, [edited])[0] as Message;
    ctx.events.emit(audienceOf(db, edited), 'conversation_message_edited', {
      conversation_id: conversation.id,
      message,
    });
    return message;
  });
}
