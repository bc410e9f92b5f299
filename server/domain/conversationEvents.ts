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
async function emitSnapshots(
  ctx: ServerContext,
  conversationId: number,
  receivers: Iterable<number>,
  send: (userId: number, conversation: Conversation) => Promise<void>,
): Promise<void> {
  // In id order: each send bumps its receiver's event counter, and transactions that lock the same users
  // in the same order cannot deadlock on PostgreSQL.
  const unique = [...new Set(receivers)].sort((a, b) => a - b);
  if (unique.length === 0) return;
  const snapshot = await conversationSnapshot(ctx.db, (await loadConversation(ctx.db, conversationId)) as ConversationRow);
  for (const userId of unique) await send(userId, await viewConversation(ctx.db, snapshot, userId, LIST_MESSAGE_COUNT));
}

export async function emitConversationEdit(
  ctx: ServerContext,
  conversationId: number,
  receivers: Iterable<number>,
): Promise<void> {
  await emitSnapshots(ctx, conversationId, receivers, (userId, conversation) =>
    ctx.events.emit([userId], 'conversation_edit', { conversation_id: conversationId, conversation }),
  );
}

export async function emitAddUser(
  ctx: ServerContext,
  conversationId: number,
  addedIds: number[],
  receivers: Iterable<number>,
): Promise<void> {
  await emitSnapshots(ctx, conversationId, receivers, (userId, conversation) =>
    ctx.events.emit([userId], 'conversation_add_user', { conversation_id: conversationId, user_ids: addedIds, conversation }),
  );
}

/** Posts the system message of spec §3 for a change to the conversation, from `actorId`. */
export async function postChangeEvent(
  ctx: ServerContext,
  conversationId: number,
  actorId: number,
  eventType: EventType,
  event: NonNullable<Attachment['event']>,
): Promise<void> {
  const row = (await loadConversation(ctx.db, conversationId)) as ConversationRow;
  await postSystemEvent(ctx, row, actorId, { type: 'event', event_type: eventType, event });
}
