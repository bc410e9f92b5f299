import type { Conversation, ConversationMute, Message } from '../../protocol/entities';
import { windowMessages } from './messageStore';
import { pruneSentReceipts } from './receipts';
import { removeEntries, sameJson, setEntry } from './records';
import type { EngineState, UnreadRecord } from './types';
import { reconcileSnapshot } from './unread';

/** Conversations as the server describes them, kept current by events between snapshots. */

function putConversation(state: EngineState, conversation: Conversation): EngineState {
  const old = state.conversations[conversation.id];
  if (old && sameJson(old, conversation)) return state;
  return { ...state, conversations: setEntry(state.conversations, conversation.id, conversation) };
}

/**
 * A snapshot as it is stored, given what is stored now: without its `messages` (history lives in the
 * windows), and keeping the local last message when that is newer. A list answer may have been taken
 * before a message that came by socket while it was on its way; taking its older last message would
 * move the preview and the list order back.
 */
function merged(old: Conversation | undefined, snapshot: Conversation): Conversation {
  const stripped = snapshot.messages.length === 0 ? snapshot : { ...snapshot, messages: [] };
  const local = old?.last_message;
  const remote = snapshot.last_message;
  // A snapshot taken before a delete for everybody still has the message: its tombstone stays.
  const stale = local?.deleted === true && remote?.id === local.id && remote.deleted !== true;
  if (!local || (local.id <= (remote?.id ?? 0) && !stale)) return stripped;
  return { ...stripped, last_message: local, last_message_time: old.last_message_time };
}

/**
 * Stores server snapshots of conversations (list entries, conversation answers, conversation_edit,
 * conversation_add_user) in one pass: one copy of the conversations and of the unread records however
 * many there are, and an unchanged conversation keeps its object. With `replace` the snapshots are the
 * whole list: conversations not in it are removed. The same state when nothing changes.
 */
export function storeSnapshots(state: EngineState, snapshots: readonly Conversation[], replace: boolean): EngineState {
  let next = state;
  if (replace) {
    const listed = new Set(snapshots.map((c) => c.id));
    const gone = Object.keys(state.conversations).map(Number).filter((id) => !listed.has(id));
    next = removeConversations(next, gone);
  }
  let conversations: Record<number, Conversation> | null = null;
  let unread: Record<number, UnreadRecord> | null = null;
  for (const snapshot of snapshots) {
    const id = snapshot.id;
    const record = (unread ?? next.unread)[id];
    const reconciled = reconcileSnapshot(record, snapshot, next.selfId);
    if (reconciled.record && reconciled.record !== record) {
      unread ??= { ...next.unread };
      unread[id] = reconciled.record;
    }
    const old = (conversations ?? next.conversations)[id];
    const conversation = merged(old, reconciled.conversation);
    if (old && sameJson(old, conversation)) continue;
    conversations ??= { ...next.conversations };
    conversations[id] = conversation;
  }
  if (conversations) next = { ...next, conversations };
  if (unread) next = { ...next, unread, sentReceipts: pruneSentReceipts(next.sentReceipts, unread, snapshots.map((c) => c.id)) };
  return next;
}

/** One snapshot: see `storeSnapshots`. */
export function upsertSnapshot(state: EngineState, snapshot: Conversation): EngineState {
  return storeSnapshots(state, [snapshot], false);
}

/** The user's own mute of a chat changed (their own call's answer): the chat shows it before the socket says so. */
export function setOwnMute(state: EngineState, conversationId: number, mute: ConversationMute | null): EngineState {
  const conversation = state.conversations[conversationId];
  if (!conversation) return state;
  return putConversation(state, { ...conversation, member: { ...conversation.member, mute } });
}

/**
 * A new message becomes the conversation's last message (and so moves it up the list) unless a newer one
 * is, or it is the last message's tombstone's older form (a deleted message never comes back).
 */
export function noteLastMessage(state: EngineState, message: Message): EngineState {
  const conversation = state.conversations[message.conversation_id];
  if (!conversation) return state;
  const last = conversation.last_message;
  if (last && (last.id > message.id || (last.id === message.id && last.deleted === true && message.deleted !== true))) return state;
  return putConversation(state, {
    ...conversation,
    last_message: message,
    last_message_time: message.created_at,
  });
}

/**
 * Forgets conversations and everything loaded for them. Their unread records stay: a record's read
 * point is the receipt floor (state/receipts.ts), so the receipts sent stay sent (once, ever) if the
 * conversation comes back; ids are never reused (docs/server.md).
 */
export function removeConversations(state: EngineState, conversationIds: readonly number[]): EngineState {
  if (conversationIds.length === 0) return state;
  const messageIds = conversationIds.flatMap((id) => Object.keys(state.messages[id] ?? {}).map(Number));
  const conversations = removeEntries(state.conversations, conversationIds);
  const messages = removeEntries(state.messages, conversationIds);
  const receipts = removeEntries(state.receipts, messageIds);
  const windows = removeEntries(state.windows, conversationIds);
  if (
    conversations === state.conversations &&
    messages === state.messages &&
    receipts === state.receipts &&
    windows === state.windows
  ) {
    return state;
  }
  return { ...state, conversations, messages, receipts, windows };
}

/**
 * After messages were deleted: when the conversation's last message was among them, the newest
 * remaining loaded message takes its place if the window shows it is the newest; otherwise the caller
 * must refetch the conversation (`refetch: true`), and the last message is cleared until the answer
 * comes (its time stays, so the list order holds): a deleted message must not win against the answer
 * as the newer last message (`merged`). Call with the state from before the removal for
 * `holdsLatestBefore`.
 */
export function repairLastMessage(
  state: EngineState,
  conversationId: number,
  removedIds: readonly number[],
  holdsLatestBefore: boolean,
): { state: EngineState; refetch: boolean } {
  const conversation = state.conversations[conversationId];
  const last = conversation?.last_message;
  if (!conversation || !last || !removedIds.includes(last.id)) return { state, refetch: false };
  const window = state.windows[conversationId];
  const unknown = { state: putConversation(state, { ...conversation, last_message: null }), refetch: true };
  if (!holdsLatestBefore || !window) return unknown;
  const remaining = windowMessages(state, conversationId);
  const newest = remaining[remaining.length - 1];
  if (newest) {
    return {
      state: putConversation(state, { ...conversation, last_message: newest, last_message_time: newest.created_at }),
      refetch: false,
    };
  }
  if (window.hasOlder) return unknown;
  return {
    state: putConversation(state, { ...conversation, last_message: null, last_message_time: '0' }),
    refetch: false,
  };
}
