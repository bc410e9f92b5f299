import type { Message } from '../../protocol/entities';
import { isDeleted, tombstoneOf } from '../rules/delete';
import { isSystemEvent } from '../rules/unread';
import { noteLastMessage, repairLastMessage } from './conversationStore';
import {
  appendToWindow,
  dropMessages,
  findMessages,
  getMessage,
  holdsLatest,
  putMessage,
  refreshMessage,
} from './messageStore';
import { planReceipt, planReceiptBeforeRead } from './receipts';
import { READ_RECEIPT_DELAY_MS } from './types';
import type { EngineEffect, EngineState, ReduceContext } from './types';
import { forgetUnread, isNewIncoming, markReadUpTo, noteIncoming, readsAsSeen } from './unread';

/** What happens to the state when messages arrive, change or go: shared by socket events and call answers. */

/**
 * A message to show: a new one (socket, or the answer to our own send) or a newer form of a loaded one.
 * It joins the window when the window holds the latest page, and becomes the conversation's last
 * message unless a newer one already is (so the list re-sorts).
 */
export function storeMessage(state: EngineState, message: Message): EngineState {
  const conversationId = message.conversation_id;
  let next = state;
  if (getMessage(state, conversationId, message.id)) {
    next = putMessage(next, message);
  } else if (holdsLatest(state, conversationId)) {
    const appended = appendToWindow(next, conversationId, message.id);
    if (appended) next = putMessage(appended, message);
  }
  return noteLastMessage(next, message);
}

/**
 * `conversation_message` (spec §4): store it, and for another user's message count it as unread
 * unless the chat is open, plan delivered now and, in an open chat, read after 500 ms (each once,
 * ever), and report it so the engine can decide on a notification. Own messages are never counted.
 * Nor are system events (a rename, a new picture, members added or removed: issue 10), whoever made
 * the change: they are receipted like any other message (the read receipt moves the server's read
 * marker past them), and in an open chat the read point passes them, but they never count as unread
 * and never ask for a notification.
 */
export function receiveMessage(
  state: EngineState,
  message: Message,
  ctx: ReduceContext,
  effects: EngineEffect[],
): EngineState {
  const conversationId = message.conversation_id;
  if (!(conversationId in state.conversations)) effects.push({ type: 'refetchConversation', conversationId });
  if (state.selfId === null || message.user_id === state.selfId) return storeMessage(state, message);

  // A chat read as its reader sees it, with unread messages before this one, is read when they reach it
  // (docs/ui.md, "Opening at the first unread message"): until then a new message is unread as in a closed chat.
  const open = ctx.openConversations.has(conversationId) && !readsAsSeen(state, conversationId, ctx);
  const counted = !isSystemEvent(message);
  // A message already counted (by its own earlier event or by a snapshot) is not counted or announced
  // again; an event is never counted or announced.
  const fresh = counted && isNewIncoming(state, message);
  let next = state;
  if (open) {
    // Both receipts are planned before the read point passes the message, which then records them.
    planReceiptBeforeRead(next, effects, conversationId, message.id, 'delivered', 0);
    planReceiptBeforeRead(next, effects, conversationId, message.id, 'read', READ_RECEIPT_DELAY_MS);
    // An event is read (the read point passes it) but not received: it never makes the chat unread.
    next = counted ? noteIncoming(next, message, true) : markReadUpTo(next, conversationId, message.id);
  } else {
    next = planReceipt(next, effects, conversationId, message.id, 'delivered', 0);
    if (fresh) next = noteIncoming(next, message, false);
  }
  next = storeMessage(next, message);
  if (fresh) effects.push({ type: 'incomingMessage', conversationId, message });
  return next;
}

/**
 * Messages deleted for everybody, as the server keeps them (docs/server.md): each one this client holds,
 * loaded or as its conversation's last message, becomes its tombstone (`tombstoneOf`) in its place, and
 * leaves the unread count. One it does not hold comes as a tombstone with the page that holds it.
 */
export function tombstoneMessages(
  state: EngineState,
  conversationId: number,
  ids: readonly number[],
  stids: readonly string[],
): EngineState {
  const found = findMessages(state, conversationId, ids, stids);
  const last = state.conversations[conversationId]?.last_message;
  const originals = found
    .map((id) => getMessage(state, conversationId, id) ?? (last?.id === id ? last : undefined))
    .filter((m): m is Message => m !== undefined && !isDeleted(m));
  if (originals.length === 0) return state;
  let next = state;
  for (const message of originals) next = refreshMessage(next, tombstoneOf(message));
  return forgetUnread(next, conversationId, originals);
}

/**
 * Messages hidden for this user (delete for me): named by id or by stid. They leave the window and the
 * unread count; when the conversation's last message went, the
 * newest remaining one takes its place, or the conversation is refetched when that is not loaded.
 */
export function deleteMessages(
  state: EngineState,
  conversationId: number,
  ids: readonly number[],
  stids: readonly string[],
  effects: EngineEffect[],
): EngineState {
  const found = findMessages(state, conversationId, ids, stids);
  if (found.length === 0) return state;
  const last = state.conversations[conversationId]?.last_message;
  const removed = found
    .map((id) => getMessage(state, conversationId, id) ?? (last?.id === id ? last : undefined))
    .filter((m): m is Message => m !== undefined);
  const heldLatest = holdsLatest(state, conversationId);
  const dropped = dropMessages(state, conversationId, found);
  const repaired = repairLastMessage(dropped, conversationId, found, heldLatest);
  if (repaired.refetch) effects.push({ type: 'refetchConversation', conversationId });
  return forgetUnread(repaired.state, conversationId, removed);
}

/**
 * Changes a message the user can see (reactions, comment count) found by id or stid, loaded or as the
 * conversation's last message; the same state when it is neither.
 */
export function updateMessage(
  state: EngineState,
  conversationId: number,
  messageId: number | undefined,
  stid: string | undefined,
  change: (message: Message) => Message,
): EngineState {
  const ids = findMessages(state, conversationId, messageId === undefined ? [] : [messageId], stid ? [stid] : []);
  let next = state;
  for (const id of ids) {
    const current = getMessage(next, conversationId, id) ?? next.conversations[conversationId]?.last_message;
    if (current && current.id === id) next = refreshMessage(next, change(current));
  }
  return next;
}
