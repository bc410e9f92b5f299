import type { Conversation, Message } from '../../protocol/entities';
import { windowMessages } from './messageStore';
import { removeEntries, setEntry } from './records';
import type { EngineState } from './types';
import { reconcileSnapshot } from './unread';

/** Conversations as the server describes them, kept current by events between snapshots. */

function sameConversation(a: Conversation, b: Conversation): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function putConversation(state: EngineState, conversation: Conversation): EngineState {
  const old = state.conversations[conversation.id];
  if (old && sameConversation(old, conversation)) return state;
  return { ...state, conversations: setEntry(state.conversations, conversation.id, conversation) };
}

/**
 * Stores a server snapshot of a conversation (list entry, conversation answer, conversation_edit,
 * conversation_add_user). Its `messages` are not kept here: history lives in the windows.
 */
export function upsertSnapshot(state: EngineState, snapshot: Conversation): EngineState {
  const stripped = snapshot.messages.length === 0 ? snapshot : { ...snapshot, messages: [] };
  const reconciled = reconcileSnapshot(state, stripped);
  return putConversation(reconciled.state, reconciled.conversation);
}

/** A new message becomes the conversation's last message (and so moves it up the list) unless a newer one is. */
export function noteLastMessage(state: EngineState, message: Message): EngineState {
  const conversation = state.conversations[message.conversation_id];
  if (!conversation) return state;
  const last = conversation.last_message;
  if (last && last.id > message.id) return state;
  return putConversation(state, {
    ...conversation,
    last_message: message,
    last_message_time: message.created_at,
  });
}

/** Forgets a conversation and everything loaded for it; the receipts sent stay recorded (once, ever). */
export function removeConversation(state: EngineState, conversationId: number): EngineState {
  const messageIds = Object.values(state.messages)
    .filter((m) => m.conversation_id === conversationId)
    .map((m) => m.id);
  const conversations = removeEntries(state.conversations, [conversationId]);
  const messages = removeEntries(state.messages, messageIds);
  const receipts = removeEntries(state.receipts, messageIds);
  const windows = removeEntries(state.windows, [conversationId]);
  const unread = removeEntries(state.unread, [conversationId]);
  if (
    conversations === state.conversations &&
    messages === state.messages &&
    receipts === state.receipts &&
    windows === state.windows &&
    unread === state.unread
  ) {
    return state;
  }
  return { ...state, conversations, messages, receipts, windows, unread };
}

/**
 * After messages were deleted: when the conversation's last message was among them, the newest
 * remaining loaded message takes its place if the window shows it is the newest; otherwise the caller
 * must refetch the conversation (`refetch: true`). Call with the state from before the removal
 * for `holdsLatestBefore`.
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
  if (!holdsLatestBefore || !window) return { state, refetch: true };
  const remaining = windowMessages(state, conversationId);
  const newest = remaining[remaining.length - 1];
  if (newest) {
    return {
      state: putConversation(state, { ...conversation, last_message: newest, last_message_time: newest.created_at }),
      refetch: false,
    };
  }
  if (window.hasOlder) return { state, refetch: true };
  return {
    state: putConversation(state, { ...conversation, last_message: null, last_message_time: '0' }),
    refetch: false,
  };
}
