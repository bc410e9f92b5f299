import type { Conversation, Message } from '../../protocol/entities';
import type { EngineState, UnreadRecord } from './types';
import { groupSenderName } from '../rules/sender';
import { unreadCount } from './unread';
import type { ConversationListItem, LastMessagePreview } from '../contract/types';

/** Epoch seconds of the latest activity: last_message_time, or created_at for an empty conversation ('0'). */
export function conversationSortTime(conversation: Conversation): number {
  const last = Number(conversation.last_message_time);
  if (Number.isFinite(last) && last > 0) return last;
  const created = Number(conversation.created_at);
  return Number.isFinite(created) ? created : 0;
}

/** Newest first; the same second falls back to the newer last message, then the newer conversation. */
export function compareListItems(a: ConversationListItem, b: ConversationListItem): number {
  return (
    b.sortTime - a.sortTime ||
    (b.conversation.last_message?.id ?? 0) - (a.conversation.last_message?.id ?? 0) ||
    b.conversation.id - a.conversation.id
  );
}

/** The nicknames of an event's sender and first subject, from the conversation's members. */
function eventNames(message: Message, members: Conversation['users']): Record<number, string> {
  const event = message.attachment?.event;
  if (!message.attachment?.event_type || !event) return {};
  const wanted = new Set([message.user_id, event.user_id, event.user_ids?.[0]]);
  const names: Record<number, string> = {};
  for (const { user } of members) {
    // The API names a member's id `user_id` or `id` (spec §3).
    const id = user.user_id || user.id;
    if (wanted.has(id) && user.nickname) names[id] = user.nickname;
  }
  return names;
}

export function lastMessagePreview(
  message: Message | null,
  selfId: number | null,
  members: Conversation['users'] = [],
  conversation: Conversation | null = null,
): LastMessagePreview | null {
  if (!message) return null;
  return {
    messageId: message.id,
    userId: message.user_id,
    fromSelf: message.user_id === selfId,
    text: message.message,
    type: message.type,
    attachmentType: message.attachment?.type ?? null,
    eventType: message.attachment?.event_type ?? null,
    event: message.attachment?.event_type ? (message.attachment.event ?? null) : null,
    names: eventNames(message, members),
    senderName: groupSenderName(message, selfId, conversation, members),
    selfId,
    createdAt: message.created_at,
    edited: message.edited_at > 0,
    deleted: message.deleted === true,
  };
}

/** `members` names the people of the preview's event when `conversation` is the list's (no members). */
export function listItem(
  conversation: Conversation,
  record: UnreadRecord | undefined,
  selfId: number | null,
  members: Conversation['users'] = conversation.users,
): ConversationListItem {
  const count = unreadCount(conversation, record);
  return {
    conversation,
    unreadCount: count,
    isUnread: count > 0,
    preview: lastMessagePreview(conversation.last_message, selfId, members, conversation),
    sortTime: conversationSortTime(conversation),
  };
}

/**
 * A conversation as the chats list carries it. A group leaves out its member list (up to 500 members),
 * which every new message would otherwise clone into every tab with the changed row; a one-to-one chat
 * keeps its two members, as the row's avatar is the other person's. `conversation(id)` has the whole list.
 */
export function listConversation(conversation: Conversation): Conversation {
  return conversation.is_group && conversation.users.length > 0 ? { ...conversation, users: [] } : conversation;
}

/** One conversation as a list row, or null when it is not known. */
export function selectConversation(state: EngineState, conversationId: number): ConversationListItem | null {
  const conversation = state.conversations[conversationId];
  return conversation ? listItem(conversation, state.unread[conversationId], state.selfId) : null;
}

interface CachedRow {
  record: UnreadRecord | undefined;
  item: ConversationListItem;
}

/**
 * The conversation list: every conversation, newest activity first, with its unread state and
 * last-message preview. Memoised: the same array while nothing it reads changed (messages, windows,
 * receipts and presence are not read), and the same row object for every conversation whose data,
 * unread count and owner are unchanged, so a virtualised list re-renders only the rows that changed and
 * an event that changes no row gives the same array.
 */
export function createConversationListSelector(): (state: EngineState) => readonly ConversationListItem[] {
  let rows = new WeakMap<Conversation, CachedRow>();
  let lastInputs: { conversations: unknown; unread: unknown; selfId: number | null } | null = null;
  let lastList: readonly ConversationListItem[] = [];
  return (state) => {
    if (
      lastInputs &&
      lastInputs.conversations === state.conversations &&
      lastInputs.unread === state.unread &&
      lastInputs.selfId === state.selfId
    ) {
      return lastList;
    }
    if (lastInputs && lastInputs.selfId !== state.selfId) rows = new WeakMap();
    lastInputs = { conversations: state.conversations, unread: state.unread, selfId: state.selfId };
    const list = Object.values(state.conversations)
      .map((conversation) => {
        const record = state.unread[conversation.id];
        const cached = rows.get(conversation);
        if (cached && cached.record === record) return cached.item;
        // Rows are per conversation object and selfId, so only the unread record can have changed the
        // row: a record that moved without changing the count (an open chat reading) keeps the row.
        const item =
          cached && cached.item.unreadCount === unreadCount(conversation, record)
            ? cached.item
            : listItem(listConversation(conversation), record, state.selfId, conversation.users);
        rows.set(conversation, { record, item });
        return item;
      })
      .sort(compareListItems);
    if (list.length !== lastList.length || list.some((item, i) => item !== lastList[i])) lastList = list;
    return lastList;
  };
}
