import type { Attachment, Conversation, EventType } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { LIST_MESSAGE_COUNT } from './conversationRules';
import { postSystemEvent } from './messages';
import type { ConversationRow } from './rows';
import { conversationSnapshot, loadConversation, viewConversation } from './serialize';

/**
 * Sends each receiver the conversation as they see it (their role, unread count, the messages visible
 * to them), shaped like an entry of the conversations list (one latest message). What is the same for
 * everybody is built once; each receiver costs a fixed number of queries. Call inside the transaction
 * that made the change, after it, so the snapshot is the new state.
 */
function emitSnapshots(
  ctx: ServerContext,
  conversationId: number,
  receivers: Iterable<number>,
  send: (userId: number, conversation: Conversation) => void,
): void {
  const unique = new Set(receivers);
  if (unique.size === 0) return;
  const snapshot = conversationSnapshot(ctx.db, loadConversation(ctx.db, conversationId) as ConversationRow);
  for (const userId of unique) send(userId, viewConversation(ctx.db, snapshot, userId, LIST_MESSAGE_COUNT));
}

export function emitConversationEdit(ctx: ServerContext, conversationId: number, receivers: Iterable<number>): void {
  emitSnapshots(ctx, conversationId, receivers, (userId, conversation) =>
    ctx.events.emit([userId], 'conversation_edit', { conversation_id: conversationId, conversation }),
  );
}

export function emitAddUser(ctx: ServerContext, conversationId: number, addedIds: number[], receivers: Iterable<number>): void {
  emitSnapshots(ctx, conversationId, receivers, (userId, conversation) =>
    ctx.events.emit([userId], 'conversation_add_user', { conversation_id: conversationId, user_ids: addedIds, conversation }),
  );
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
