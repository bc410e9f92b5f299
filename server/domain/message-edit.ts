import type { Message } from '../../src/protocol/entities';
import { EDIT_WINDOW_MS, MESSAGE_TEXT_MAX } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { badRequest, forbidden } from '../http/errors';
import { audienceOf, requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';

/**
 * Edits the text of the caller's own message within the edit window (spec §4 "Editing", §6 "Edit") and
 * tells the message's audience. An edit that leaves the text as it was changes nothing and emits nothing.
 */
export async function editMessage(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  rawText: string,
): Promise<Message> {
  const { db } = ctx;
  if (conversation.is_demo === 1) throw forbidden('This is a demo chat', 'demo_chat');
  const row = await requireVisibleMessage(db, conversation.id, member, messageId);
  if (row.type === 'system') throw forbidden('System messages cannot be edited');
  if (row.user_id !== member.user_id) throw forbidden('You can only edit your own messages');
  const now = ctx.clock.now();
  if (now - row.created_at > EDIT_WINDOW_MS) throw forbidden('This message is too old to edit');
  const text = rawText.trim();
  if (text === '') throw badRequest('A message cannot be empty', 'message_empty');
  if (text.length > MESSAGE_TEXT_MAX) {
    throw badRequest(`A message can be at most ${MESSAGE_TEXT_MAX} characters`, 'message_too_long');
  }
  if (text === row.message) return (await serializeMessages(db, conversation, [row]))[0] as Message;
  return ctx.events.transaction(async () => {
    await db.run(
      sql`UPDATE messages SET message = ${text}, edited_at = ${now}, updated_at = ${now} WHERE id = ${row.id}`,
    );
    const edited = (await db.get<MessageRow>(sql`SELECT * FROM messages WHERE id = ${row.id}`)) as MessageRow;
    const message = (await serializeMessages(db, conversation, [edited]))[0] as Message;
    await ctx.events.emit(await audienceOf(db, edited), 'conversation_message_edited', {
      conversation_id: conversation.id,
      message,
    });
    return message;
  });
}
