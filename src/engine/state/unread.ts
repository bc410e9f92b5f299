import type { Conversation, Message } from '../../protocol/entities';
import { countsAsUnread } from '../rules/unread';
import { conversationMessages, getMessage, holdsLatest } from './messageStore';
import { pruneSentReceipts } from './receipts';
import { setEntry } from './records';
import type { EngineState, ReduceContext, UnreadRecord } from './types';

/**
 * Unread state (spec §3 and §4), in two parts that this file keeps consistent:
 *
 * - The unread record (lastReadMessageId, lastReceivedMessageId) counts only other people's messages
 *   that are not system events (rules/unread.ts `countsAsUnread`, issue 10); the conversation is unread
 *   when lastRead < lastReceived. It is moved by what this client learns: incoming messages, opening a
 *   chat, a message seen, a read on another device (self_dlr_sync). An own message never raises
 *   lastReceived past lastRead (the server reads everything before one's own message, docs/server.md),
 *   and an event (a rename, members added...) never raises lastReceived at all, so neither can be what
 *   keeps a chat unread. Reading is by position: reading an event, or a message after it, reads past it.
 * - The conversation's `unread_message_count` is the server's count, taken from every snapshot the
 *   server sends (list, conversation, conversation_edit, conversation_add_user) and kept current
 *   between snapshots: +1 for another user's new message in a chat that is not open, 0 once the latest
 *   message is read, an exact recount from the loaded messages when the window allows one. The server
 *   does not count events either, so both counts agree.
 *
 * The rule for the number shown (see `unreadCount`): the server's count, until the local record says
 * otherwise: a record that says "read" shows 0 (the server's snapshot may predate a read receipt still
 * on its way), and a record that says "unread" shows at least 1.
 *
 * The record's read point is also the receipt floor (state/receipts.ts): nothing at or below it needs a
 * receipt, so moving it up forgets the sent-receipt keys it covers.
 */

export function unreadCount(conversation: Conversation, record: UnreadRecord | undefined): number {
  if (!record) return conversation.unread_message_count;
  if (record.lastReadMessageId >= record.lastReceivedMessageId) return 0;
  return Math.max(conversation.unread_message_count, 1);
}

/**
 * Whether a chat waits for its reader to see its unread messages (docs/ui.md, "Opening at the first unread
 * message"): it is shown in a tab that reads as seen and has unread messages. Then opening it, showing it and a
 * new message in it read nothing; only `messageVisible` moves its read point.
 */
export function readsAsSeen(state: EngineState, conversationId: number, ctx: ReduceContext): boolean {
  if (ctx.readAsSeen?.has(conversationId) !== true) return false;
  const conversation = state.conversations[conversationId];
  return conversation !== undefined && unreadCount(conversation, state.unread[conversationId]) > 0;
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
  const unread = setEntry(state.unread, record.conversationId, record);
  const readMoved = record.lastReadMessageId > (old?.lastReadMessageId ?? 0);
  const sentReceipts = readMoved ? pruneSentReceipts(state.sentReceipts, unread, [record.conversationId]) : state.sentReceipts;
  return { ...state, unread, sentReceipts };
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
 * up to the conversation's last message was read; otherwise the read point is unknown (0) and the
 * unread messages the server counted reach up to its last message (when that is another user's
 * message, not an event), so reading one of them does not read the rest.
 */
function recordFor(state: EngineState, conversationId: number): UnreadRecord {
  const existing = state.unread[conversationId];
  if (existing) return existing;
  const conversation = state.conversations[conversationId];
  const last = conversation?.last_message;
  if (conversation && conversation.unread_message_count === 0) {
    const readUpTo = last?.id ?? 0;
    return { conversationId, lastReadMessageId: readUpTo, lastReceivedMessageId: readUpTo };
  }
  const received = last && countsAsUnread(last, state.selfId) ? last.id : 0;
  return { conversationId, lastReadMessageId: 0, lastReceivedMessageId: received };
}

/**
 * Whether another user's message is new to this client: above everything the record has received or
 * read. Without a record, the conversation's snapshot counted every message up to its last message,
 * so only a newer one is new. The server sends a user's events in id order (docs/server.md), so a
 * lower id that arrives late was already counted: by a snapshot taken after it was stored (a list
 * fetched while the socket replays) or by its own earlier event.
 */
export function isNewIncoming(state: EngineState, message: Message): boolean {
  const record = state.unread[message.conversation_id];
  const known = record
    ? Math.max(record.lastReceivedMessageId, record.lastReadMessageId)
    : (state.conversations[message.conversation_id]?.last_message?.id ?? 0);
  return message.id > known;
}

/**
 * Another user's new message arrived (call before the conversation's last message moves on; never for
 * a system event, which is not counted). In an open chat it is read at once; otherwise it is one more
 * unread message.
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
  const byId = conversationMessages(state, conversationId);
  let count = 0;
  // Newest first, stopping at the read point: a long window costs only its unread tail.
  for (let i = window.ids.length - 1; i >= 0; i--) {
    const id = window.ids[i];
    if (id === undefined || id <= lastRead) break;
    const message = byId[id];
    if (message && countsAsUnread(message, state.selfId)) count++;
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

/**
 * A delayed read was withdrawn (spec §4: the chat closed within the 500 ms): the message, read locally
 * when it arrived in the open chat, is unread again, and so its read receipt is due again later. Its
 * delivered receipt went out on arrival and stays recorded. A system event's read point goes back the
 * same way (its read receipt is due again), but an event is never unread, so the chat stays read
 * unless an earlier message is still unread.
 */
export function unreadAgain(state: EngineState, conversationId: number, messageId: number): EngineState {
  const record = state.unread[conversationId];
  if (!record || record.lastReadMessageId < messageId) return state;
  const lastReadMessageId = messageId - 1;
  const last = state.conversations[conversationId]?.last_message;
  const message = getMessage(state, conversationId, messageId) ?? (last?.id === messageId ? last : undefined);
  // A message no longer loaded counts as before (it arrived as another user's message).
  const counted = message === undefined || countsAsUnread(message, state.selfId);
  const lastReceivedMessageId = counted ? Math.max(record.lastReceivedMessageId, messageId) : record.lastReceivedMessageId;
  const next = putRecord(state, { conversationId, lastReadMessageId, lastReceivedMessageId });
  if (lastReadMessageId >= lastReceivedMessageId) return setCount(next, conversationId, 0);
  const exact = recount(next, conversationId, lastReadMessageId);
  return setCount(next, conversationId, exact ?? Math.max(next.conversations[conversationId]?.unread_message_count ?? 0, 1));
}

/** Opening a chat reads everything in it (spec §4): the count goes to 0. */
export function markAllRead(state: EngineState, conversationId: number, latestId: number): EngineState {
  const record = recordFor(state, conversationId);
  const top = Math.max(record.lastReceivedMessageId, record.lastReadMessageId, latestId);
  const next = putRecord(state, { conversationId, lastReadMessageId: top, lastReceivedMessageId: top });
  return setCount(next, conversationId, 0);
}

/** Deleted or hidden messages that were unread stop counting (a hidden event never counted). */
export function forgetUnread(state: EngineState, conversationId: number, removed: readonly Message[]): EngineState {
  const record = state.unread[conversationId];
  if (!record) return state;
  const unreadGone = removed.filter((m) => countsAsUnread(m, state.selfId) && m.id > record.lastReadMessageId).length;
  if (unreadGone === 0) return state;
  const exact = recount(state, conversationId, record.lastReadMessageId);
  const count = exact ?? (state.conversations[conversationId]?.unread_message_count ?? 0) - unreadGone;
  if (count > 0) return setCount(state, conversationId, count);
  const next = putRecord(state, { ...record, lastReadMessageId: Math.max(record.lastReadMessageId, record.lastReceivedMessageId) });
  return setCount(next, conversationId, 0);
}

/**
 * Reconciles a conversation snapshot from the server with the local record (pure: the caller stores
 * both; the same record object comes back when it does not change). The server's count stands, unless
 * the record already knows that the snapshot's latest message was read (a read receipt may still be
 * on its way). A snapshot saying nothing is unread moves the record's read point up; a snapshot with
 * unread messages we never received marks the record unread.
 */
export function reconcileSnapshot(
  record: UnreadRecord | undefined,
  snapshot: Conversation,
  selfId: number | null,
): { record: UnreadRecord | undefined; conversation: Conversation } {
  const last = snapshot.last_message;
  const lastId = last?.id ?? 0;
  if (!record) {
    if (snapshot.unread_message_count > 0 || lastId === 0) return { record, conversation: snapshot };
    return { record: { conversationId: snapshot.id, lastReadMessageId: lastId, lastReceivedMessageId: lastId }, conversation: snapshot };
  }
  // An event as the last row is not a received message: the unread ones, if any, lie before it.
  const fromOther = last !== null && countsAsUnread(last, selfId);
  const received = Math.max(record.lastReceivedMessageId, fromOther ? lastId : 0);
  const keep = (read: number, rec: number): UnreadRecord =>
    read === record.lastReadMessageId && rec === record.lastReceivedMessageId
      ? record
      : { conversationId: snapshot.id, lastReadMessageId: read, lastReceivedMessageId: rec };
  if (snapshot.unread_message_count === 0) {
    // Read up to the snapshot's last message; a newer message that arrived after the snapshot stays unread.
    return { record: keep(Math.max(record.lastReadMessageId, lastId), received), conversation: snapshot };
  }
  if (record.lastReadMessageId >= lastId) {
    const zero = { ...snapshot, unread_message_count: 0, is_unread: false };
    return { record: keep(record.lastReadMessageId, received), conversation: zero };
  }
  // The server counts unread messages the record has not seen (missed while offline): mark it unread.
  // They are above the read point and at most the last message. When the last message is another
  // user's, it is the received point. When it is our own or an event it is not received (neither is
  // ever what is unread): the unseen ones lie somewhere between, so the lowest id they can have is
  // taken, and any read past the old read point (here, or self_dlr_sync from another device) clears it.
  const lastReceivedMessageId = fromOther ? Math.max(received, lastId) : Math.max(received, record.lastReadMessageId + 1);
  return { record: keep(record.lastReadMessageId, lastReceivedMessageId), conversation: snapshot };
}
