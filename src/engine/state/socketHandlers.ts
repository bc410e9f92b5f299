import type { EventAction, EventPayloads } from '../../protocol/socket';
import { commentAdded, commentReactions } from './comments';
import { removeConversations, upsertSnapshot } from './conversationStore';
import { deleteMessages, receiveMessage, tombstoneMessages, updateMessage } from './messageEvents';
import { refreshMessage } from './messageStore';
import { addMark } from './receiptMarks';
import { recordReceipt } from './receipts';
import { setEntry } from './records';
import type { EngineEffect, EngineState, ReduceContext } from './types';
import { markReadUpTo } from './unread';

/**
 * One handler per websocket action of spec §4, with the payloads the reference server sends
 * (src/protocol/socket.ts; who receives what is in docs/server.md). A handler returns the next state
 * and pushes the effects it asks for; it never performs them.
 */
export type SocketHandler<A extends EventAction> = (
  state: EngineState,
  data: EventPayloads[A],
  ctx: ReduceContext,
  effects: EngineEffect[],
) => EngineState;

export type SocketHandlers = { [A in EventAction]: SocketHandler<A> };

/** The signed-in user is no longer in the conversation: forget it, send its tabs back to the list. */
function leave(state: EngineState, conversationId: number, effects: EngineEffect[]): EngineState {
  effects.push({ type: 'conversationGone', conversationId }, { type: 'refetchConversations' });
  return removeConversations(state, [conversationId]);
}

/** Another member left or was removed: drop them from the member list the conversation carries. */
function removeMember(state: EngineState, conversationId: number, userId: number, effects: EngineEffect[]): EngineState {
  const conversation = state.conversations[conversationId];
  if (!conversation) {
    effects.push({ type: 'refetchConversation', conversationId });
    return state;
  }
  const users = conversation.users.filter((u) => u.user.user_id !== userId);
  const admins = conversation.admins.filter((id) => id !== userId);
  // member_count is exact while `users` may be cut at 500, so it drops even when the person was not listed.
  const next = { ...conversation, users, admins, member_count: Math.max(0, conversation.member_count - 1) };
  return { ...state, conversations: setEntry(state.conversations, conversationId, next) };
}

export const socketHandlers: SocketHandlers = {
  conversation_message: (state, data, ctx, effects) => receiveMessage(state, data.message, ctx, effects),

  conversation_edit: (state, data) => upsertSnapshot(state, data.conversation),

  conversation_add_user: (state, data) => upsertSnapshot(state, data.conversation),

  deleted_conversation: (state, data, _ctx, effects) => leave(state, data.conversation_id, effects),

  conversation_removed_user: (state, data, _ctx, effects) =>
    data.user_id === state.selfId
      ? leave(state, data.conversation_id, effects)
      : removeMember(state, data.conversation_id, data.user_id, effects),

  reactions_changed: (state, data) => {
    const { reactions } = data;
    // A comment's reactions name no message.
    if (data.comment_id !== undefined) return commentReactions(state, data.comment_id, reactions);
    return updateMessage(state, data.conversation_id, data.message_id, data.message_stid, (m) => ({ ...m, reactions }));
  },

  // Delete for me removes the messages; delete for everybody leaves each one's tombstone in its place.
  conversation_message_delete: (state, data, _ctx, effects) =>
    data.hidden
      ? deleteMessages(state, data.conversation_id, data.message_ids, data.message_stids, effects)
      : tombstoneMessages(state, data.conversation_id, data.message_ids, data.message_stids),

  conversation_message_edited: (state, data) => refreshMessage(state, data.message),

  conversation_message_update: (state, data) => refreshMessage(state, data.message),

  // The comment joins its thread (when loaded), and its post counts it.
  channel_post_comment_added: (state, data) =>
    updateMessage(commentAdded(state, data.comment, data.participants), data.channel_id, data.post_id, undefined, (post) => ({
      ...post,
      discussion: { comments_count: (post.discussion?.comments_count ?? 0) + 1 },
    })),

  inbox_channel_added: (state, _data, _ctx, effects) => {
    effects.push({ type: 'refetchConversations' });
    return state;
  },

  message_dlr2: (state, data) => {
    const marks = state.receipts[data.message_id];
    const next = addMark(marks, data.type, data.user_id);
    if (next === marks) return state;
    return { ...state, receipts: setEntry(state.receipts, data.message_id, next) };
  },

  user_presence: (state, data) => {
    const old = state.presence[data.user_id];
    if (old && old.online === data.online && old.lastSeen === data.last_seen) return state;
    const presence = setEntry(state.presence, data.user_id, { online: data.online, lastSeen: data.last_seen });
    return { ...state, presence };
  },

  self_dlr_sync: (state, data) =>
    // Our other tab or device sent it: never send it again, and a read there is a read here (the read
    // point moving past the message records its receipts as sent).
    data.type === 'read'
      ? markReadUpTo(state, data.conversation_id, data.message_id)
      : recordReceipt(state, data.conversation_id, data.message_id, data.type),
};
