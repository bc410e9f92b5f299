import type { Conversation, Message } from '../../protocol/entities';
import { holdsLatest } from './messageStore';
import { setEntry } from './records';
import type { EngineState, UnreadRecord } from './types';

/**
 * Unread state (spec §3 and §4), in two parts that this file keeps consistent:
 *
 * - The unread record (lastReadMessageId, lastReceivedMessageId) counts only other people's messages;
 *   the conversation is unread when lastRead < lastReceived. It is moved by what this client learns:
 *   incoming messages, opening a chat, a message seen, a read on another device (self_dlr_sync).
 * - The conversation's `unread_message_count` is the server's count, taken from every snapshot the
 *   server sends (list, conversation, conversation_edit, conversation_add_user) and kept current
 *   between snapshots: +1 for another user's message in a chat that is not open, 0 once the latest
 *   message is read, an exact recount from the loaded messages when the window allows one.
 *
 * The rule for the number shown (see `unreadCount`): the server's count, until the local record says
 * otherwise: a record that says "read" shows 0 (the server's snapshot may predate a read receipt still
 * on its way), and a record that says "unread" shows at least 1.
 */

export function unreadCount(conversation: Conversation, record: UnreadRecord | undefined): number {
  if (!record) return conversation.unread_message_count;
  if (record.lastReadMessageId >= record.lastReceivedMessageId) return 0;
  return Math.max(conversation.unread_message_count, 1);
}

/** Spec §4: unread when the last read id is lower than the last received id; the server's flag without a record. */
export function isUnread(conversation: Conversation, record: UnreadRecord | undefined): boolean {
  return unreadCount(conversation, record) > 0;
}

function putRecord(state: EngineState, record: UnreadRecord): EngineState {
  const old = state.unread[record.conversationId];
  if (
    old &&
    old.lastReadMessageId === record.lastReadMessageId &&
    old.lastReceivedMessageId === record.lastReceivedMessageId
  ) {
    return state;
  }
  return { ...state, unread: setEntry(state.unread, record.conversationId, record) };
}

function setCount(state: EngineState, conversationId: number, count: number): EngineState {
  const conversation = state.conversations[conversationId];
  if (!conversation) return state;
  const unread = Math.max(0, count);
  if (conversation.unread_message_count === unread && conversation.is_unread === unread > 0) return state;
  const next = { ...conversation, unread_message_count: unread, is_unread: unread > 0 };
  return { ...state, conversations: setEntry(state.conversations, conversationId, next) };
}

/**
 * A record for a conversation that has none yet. When the server last said nothing was unread, all
 * up to the conversation's last message was read; otherwise the read point is unknown (0).
 */
function recordFor(state: EngineState, conversationId: number): UnreadRecord {
  const existing = state.unread[conversationId];
  if (existing) return existing;
  const conversation = state.conversations[conversationId];
  const readUpTo = conversation && conversation.unread_message_count === 0 ? (conversation.last_message?.id ?? 0) : 0;
  return { conversationId, lastReadMessageId: readUpTo, lastReceivedMessageId: readUpTo };
}

/**
 * Another user's new message arrived (call before the conversation's last message moves on). In an
 * open chat it is read at once; otherwise it is one more unread message.
 */
export function noteIncoming(state: EngineState, message: Message, open: boolean): EngineState {
  const conversationId = message.conversation_id;
  const record = recordFor(state, conversationId);
  const lastReceivedMessageId = Math.max(record.lastReceivedMessageId, message.id);
  if (open) {
    const next = putRecord(state, {
      conversationId,
      lastReceivedMessageId,
      lastReadMessageId: Math.max(record.lastReadMessageId, lastReceivedMessageId),
    });
    return setCount(next, conversationId, 0);
  }
  const next = putRecord(state, { ...record, lastReceivedMessageId });
  const count = state.conversations[conversationId]?.unread_message_count ?? 0;
  return setCount(next, conversationId, count + 1);
}

/**
 * The count of unread messages, from the loaded messages, when they cover everything after the read
 * point up to the latest message; null when part of that range is not loaded.
 */
function recount(state: EngineState, conversationId: number, lastRead: number): number | null {
  const window = state.windows[conversationId];
  if (!window || !holdsLatest(state, conversationId)) return null;
  const first = window.ids[0];
  if (window.hasOlder && (first === undefined || first > lastRead + 1)) return null;
  let count = 0;
  // Newest first, stopping at the read point: a long window costs only its unread tail.
  for (let i = window.ids.length - 1; i >= 0; i--) {
    const id = window.ids[i];
    if (id === undefined || id <= lastRead) break;
    const message = state.messages[id];
    if (message && message.user_id !== state.selfId) count++;
  }
  return count;
}

/** The user (here or on another device) read up to `messageId`. */
export function markReadUpTo(state: EngineState, conversationId: number, messageId: number): EngineState {
  const record = recordFor(state, conversationId);
  const lastReadMessageId = Math.max(record.lastReadMessageId, messageId);
  const next = putRecord(state, { ...record, lastReadMessageId });
  if (lastReadMessageId >= record.lastReceivedMessageId) return setCount(next, conversationId, 0);
  const exact = recount(next, conversationId, lastReadMessageId);
  if (exact !== null) return setCount(next, conversationId, exact);
  const count = next.conversations[conversationId]?.unread_message_count ?? 0;
  return setCount(next, conversationId, Math.max(count, 1));
}

/** Opening a chat reads everything in it (spec §4): the count goes to 0. */
export function markAllRead(state: EngineState, conversationId: number, latestId: number): EngineState {
  const record = recordFor(state, conversationId);
  const top = Math.max(record.lastReceivedMessageId, record.lastReadMessageId, latestId);
  const next = putRecord(state, { conversationId, lastReadMessageId: top, lastReceivedMessageId: top });
  return setCount(next, conversationId, 0);
}

/** Deleted or hidden messages that were unread stop counting. */
export function forgetUnread(state: EngineState, conversationId: number, removed: readonly Message[]): EngineState {
  const record = state.unread[conversationId];
  if (!record) return state;
  const unreadGone = removed.filter((m) => m.user_id !== state.selfId && m.id > record.lastReadMessageId).length;
  if (unreadGone === 0) return state;
  const exact = recount(state, conversationId, record.lastReadMessageId);
  const count = exact ?? (state.conversations[conversationId]?.unread_message_count ?? 0) - unreadGone;
  if (count > 0) return setCount(state, conversationId, count);
  const next = putRecord(state, { ...record, lastReadMessageId: Math.max(record.lastReadMessageId, record.lastReceivedMessageId) });
  return setCount(next, conversationId, 0);
}

/**
 * Reconciles a conversation snapshot from the server with the local record, before it is stored:
 * the server's count stands, unless the record already knows that the snapshot's latest message was
 * read (a read receipt may still be on its way). A snapshot saying nothing is unread moves the record's
 * read point up; a snapshot with unread messages we never received marks the record unread.
 */
export function reconcileSnapshot(
  state: EngineState,
  snapshot: Conversation,
): { state: EngineState; conversation: Conversation } {
  const record = state.unread[snapshot.id];
  const last = snapshot.last_message;
  const lastId = last?.id ?? 0;
  if (!record) {
    if (snapshot.unread_message_count > 0 || lastId === 0) return { state, conversation: snapshot };
    const fresh = { conversationId: snapshot.id, lastReadMessageId: lastId, lastReceivedMessageId: lastId };
    return { state: putRecord(state, fresh), conversation: snapshot };
  }
  const fromOther = last !== null && last.user_id !== state.selfId;
  const received = Math.max(record.lastReceivedMessageId, fromOther ? lastId : 0);
  if (snapshot.unread_message_count === 0) {
    // Read up to the snapshot's last message; a newer message that arrived after the snapshot stays unread.
    const read = Math.max(record.lastReadMessageId, lastId);
    const next = putRecord(state, { conversationId: snapshot.id, lastReadMessageId: read, lastReceivedMessageId: received });
    return { state: next, conversation: snapshot };
  }
  if (record.lastReadMessageId >= lastId) {
    const zero = { ...snapshot, unread_message_count: 0, is_unread: false };
    return { state: putRecord(state, { ...record, lastReceivedMessageId: received }), conversation: zero };
  }
  // The server counts unread messages the record has not seen (missed while offline): mark it unread.
  const lastReceivedMessageId = Math.max(received, lastId);
  return { state: putRecord(state, { ...record, lastReceivedMessageId }), conversation: snapshot };
}
