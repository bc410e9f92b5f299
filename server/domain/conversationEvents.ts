import type { Attachment, EventType } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { LIST_MESSAGE_COUNT } from './conversationRules';
import { postSystemEvent } from './messages';
import type { ConversationRow } from './rows';
import { loadConversation, serializeConversation } from './serialize';

/**
 * Conversation events carry the conversation as each receiver sees it (their role, unread count, the
 * messages visible to them), shaped like an entry of the conversations list (one latest message).
 * Call inside the transaction that made the change, after it, so the snapshot is the new state.
 */
export function emitConversationEdit(ctx: ServerContext, conversationId: number, receivers: number[]): void {
  const row = loadConversation(ctx.db, conversationId) as ConversationRow;
  for (const userId of new Set(receivers)) {
    const conversation = serializeConversation(ctx.db, row, userId, LIST_MESSAGE_COUNT);
    ctx.events.emit([userId], 'conversation_edit', { conversation_id: row.id, conversation });
  }
}

export function emitAddUser(ctx: ServerContext, conversationId: number, addedIds: number[], receivers: number[]): void {
  const row = loadConversation(ctx.db, conversationId) as ConversationRow;
  for (const userId of new Set(receivers)) {
    const conversation = serializeConversation(ctx.db, row, userId, LIST_MESSAGE_COUNT);
    ctx.events.emit([userId], 'conversation_add_user', { conversation_id: row.id, user_ids: addedIds, conversation });
  }
}

/** Posts the system message of spec §3 for a change to the conversation, from `actorId`. */
export function postChangeEvent(
  ctx: ServerContext,
  conversationId: number,
  actorId: number,
  eventType: EventType,
  event: NonNullable<Attachment['event']>,
): void {
  const row = loadConversation(ctx.db, conversationId) as ConversationRow;
  postSystemEvent(ctx, row, actorId, { type: 'event', event_type: eventType, event });
}
