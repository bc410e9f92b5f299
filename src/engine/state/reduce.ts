import type { Message } from '../../protocol/entities';
import { participantsSeen } from './communities';
import { reduceCommunity } from './communityEvents';
import { noteLastMessage, setOwnMute, storeSnapshots, upsertSnapshot } from './conversationStore';
import { deleteMessages, storeMessage, tombstoneMessages } from './messageEvents';
import { conversationMessages, getMessage, loadLatestPage, loadNewerPage, loadOlderPage, moveWindow, trimWindow } from './messageStore';
import { addMarks } from './receiptMarks';
import { planReceiptBeforeRead, recordReceipt } from './receipts';
import { setEntry } from './records';
import { reduceFrame, skipFrame } from './socketFrame';
import { initialState } from './types';
import type { EngineEffect, EngineEvent, EngineState, ReduceContext, ReduceResult } from './types';
import { markAllRead, markReadUpTo, readsAsSeen, unreadAgain } from './unread';

/**
 * The engine's one reducer (design.md §3): `(state, event) → (state, effects)`. Pure: it reads the
 * world only through `ctx`, returns new objects only for what changed (untouched slices keep their
 * identity), and leaves every effect to the engine.
 */
export function reduce(state: EngineState, event: EngineEvent, ctx: ReduceContext): ReduceResult {
  const effects: EngineEffect[] = [];
  switch (event.type) {
    case 'socket':
      return reduceFrame(state, event.frame, ctx);
    case 'socketSkipped':
      return skipFrame(state, event.id);
    case 'socketLoaded':
      return socketLoaded(state, event);
    case 'signedIn':
      // Another account's data must never show: a different user starts from nothing.
      if (state.selfId === event.selfId) return { state, effects };
      if (state.selfId === null) return { state: { ...state, selfId: event.selfId }, effects };
      return { state: { ...initialState(), selfId: event.selfId }, effects };
    case 'signedOut':
      return { state: initialState(), effects };
    case 'conversationsLoaded':
      // The full list: conversations not in it are gone; the loaded messages of the rest stay.
      return { state: storeSnapshots(state, event.conversations, true), effects };
    case 'conversationLoaded':
      return { state: upsertSnapshot(state, event.conversation), effects };
    case 'messagesLoaded':
      return { state: messagesLoaded(state, event, ctx, effects), effects };
    case 'newerMessagesLoaded':
      return { state: loadNewerPage(state, event.conversationId, event.messages, event.after), effects };
    case 'windowTrimmed':
      return { state: trimWindow(state, event.conversationId, event.from, event.to), effects };
    case 'windowMoved': {
      // A page that reaches past the conversation's known last message (the list was behind) moves it on.
      const newest = event.messages.reduce<Message | undefined>((a, m) => (a && a.id > m.id ? a : m), undefined);
      const moved = moveWindow(state, event.conversationId, event.messages, event.hasOlder);
      return { state: newest ? noteLastMessage(moved, newest) : moved, effects };
    }
    case 'messageStored':
      return { state: storeMessage(state, event.message), effects };
    case 'messagesDeleted':
      return {
        state: event.hidden
          ? deleteMessages(state, event.conversationId, event.messageIds, [], effects)
          : tombstoneMessages(state, event.conversationId, event.messageIds, []),
        effects,
      };
    case 'conversationOpened':
      return { state: readLatest(state, event.conversationId, effects, ctx), effects };
    case 'messageVisible':
      return { state: messageVisible(state, event.conversationId, event.messageId, effects), effects };
    case 'receiptsLoaded':
      return { state: addMarks(state, event.receipts), effects };
    case 'muteChanged':
      return { state: setOwnMute(state, event.conversationId, event.mute), effects };
    case 'presenceLoaded': {
      // The socket's word is newer than an answer that may have crossed it; "never seen" says nothing.
      // Nor is an answer asked for before the socket last (re)connected: it may be what changed meanwhile.
      if (event.round !== state.presenceRound) return { state, effects };
      if (state.presence[event.userId] || (!event.online && event.lastSeen === null)) return { state, effects };
      const presence = { online: event.online, lastSeen: event.lastSeen ?? '0' };
      return { state: { ...state, presence: setEntry(state.presence, event.userId, presence) }, effects };
    }
    case 'readWithdrawn': {
      const { conversationId, messageId } = event;
      return { state: recordReceipt(unreadAgain(state, conversationId, messageId), conversationId, messageId, 'delivered'), effects };
    }
    default:
      // The communities' events (communityEvents.ts).
      return { state: reduceCommunity(state, event), effects };
  }
}

/**
 * `socket_loaded`: the replay is over, and the server says how far its events for this user go. A sync is
 * asked for when
 * - need_sync (events were pruned, or our id is from another database);
 * - the epoch is not the one we kept (another database, or a first connect with no epoch yet: the server
 *   replays nothing then, so what happened between the first list fetch and the socket is only caught by
 *   a sync);
 * - the server's position is ahead of the last event we applied, although the replay is over: events we
 *   never got (a server that replays nothing for `last_message_id=0`, issue 14). The position the server
 *   reports is kept, not only ids of events seen, so a gap after a first connect is a gap like any other.
 * The server's id and epoch are kept even when the id is lower than ours (a reset database counts from 1).
 */
function socketLoaded(
  state: EngineState,
  event: Extract<EngineEvent, { type: 'socketLoaded' }>,
): ReduceResult {
  const otherDatabase = event.epoch !== state.epoch;
  const missed = !otherDatabase && event.lastEventId > state.lastEventId;
  const effects: EngineEffect[] = event.needSync || otherDatabase || missed ? [{ type: 'sync' }] : [];
  // Presence is never replayed: who was online before this connection may have left while it was down. What
  // was known is forgotten, and whoever is watched is asked for again (ConversationCommands.presence).
  state = { ...state, presence: {}, presenceRound: state.presenceRound + 1 };
  if (state.lastEventId === event.lastEventId && state.epoch === event.epoch) return { state, effects };
  if (state.epoch !== '' && otherDatabase) {
    // Another database (the server's data was reset): nothing known from the old one may outrank the new
    // one's answers, so only the signed-in user stays; the sync refills the rest. The communities stay as
    // they are: the sync does not refill them, their screens do, and each answer replaces what it names.
    return {
      state: {
        ...initialState(),
        ...communityPart(state),
        selfId: state.selfId,
        presenceRound: state.presenceRound,
        lastEventId: event.lastEventId,
        epoch: event.epoch,
      },
      effects,
    };
  }
  return { state: { ...state, lastEventId: event.lastEventId, epoch: event.epoch }, effects };
}

const communityPart = (state: EngineState): Partial<EngineState> => ({
  communities: state.communities,
  communityIds: state.communityIds,
  communitySearch: state.communitySearch,
  channels: state.channels,
  channelIds: state.channelIds,
  participants: state.participants,
  commentThreads: state.commentThreads,
  comments: state.comments,
});

function messagesLoaded(
  state: EngineState,
  event: Extract<EngineEvent, { type: 'messagesLoaded' }>,
  ctx: ReduceContext,
  effects: EngineEffect[],
): EngineState {
  const { conversationId, messages, pageSize } = event;
  // A page of posts brings their authors.
  const withAuthors = event.participants ? participantsSeen(state, event.participants) : state;
  if (event.older) return loadOlderPage(withAuthors, conversationId, messages, pageSize, event.before);
  let next = loadLatestPage(withAuthors, conversationId, messages, pageSize);
  const newest = messages.reduce<Message | undefined>((a, m) => (a && a.id > m.id ? a : m), undefined);
  if (newest) next = noteLastMessage(next, newest);
  // A chat opened before its messages arrived is read now that its last message is known.
  return ctx.openConversations.has(conversationId) ? readLatest(next, conversationId, effects, ctx) : next;
}

/**
 * Opening a chat (spec §4): the unread count goes to 0 and a read receipt goes out for the last
 * message. The server refuses receipts for one's own messages, and a read covers everything before
 * it, so the receipt names the newest message from someone else: loaded, the last message, or only
 * known by id as the unread record's received point (the chat opened on a cached window that lacks
 * it). The read point moves past all of them, so this is their only chance of a receipt.
 * A chat whose tab reads it as seen is not read while it has unread messages: the rows its reader sees are
 * (`messageVisible`; docs/ui.md, "Opening at the first unread message").
 */
function readLatest(state: EngineState, conversationId: number, effects: EngineEffect[], ctx: ReduceContext): EngineState {
  if (readsAsSeen(state, conversationId, ctx)) return state;
  const last = state.conversations[conversationId]?.last_message ?? null;
  const ids = state.windows[conversationId]?.ids ?? [];
  let target = last && last.user_id !== state.selfId ? last.id : 0;
  const byId = conversationMessages(state, conversationId);
  // Newest first, stopping at the first message from someone else: a long window is not walked.
  for (let i = ids.length - 1; i >= 0; i--) {
    const message = byId[ids[i] ?? -1];
    if (!message || message.user_id === state.selfId) continue;
    target = Math.max(target, message.id);
    break;
  }
  const record = state.unread[conversationId];
  // The received point can be one's own message (a chat read up to it, then a read withdrawn below it): the
  // server refuses a receipt for that, so the receipt names someone else's message (issue 12).
  const received = record ? (byId[record.lastReceivedMessageId] ?? (last?.id === record.lastReceivedMessageId ? last : undefined)) : undefined;
  if (record && record.lastReceivedMessageId > record.lastReadMessageId && received?.user_id !== state.selfId) {
    target = Math.max(target, record.lastReceivedMessageId);
  }
  const latestId = Math.max(last?.id ?? 0, ids[ids.length - 1] ?? 0, target);
  // Planned before the read point moves past it (to latestId), which then records it as sent.
  if (target > 0 && state.selfId !== null) planReceiptBeforeRead(state, effects, conversationId, target, 'read', 0);
  return markAllRead(state, conversationId, latestId);
}

/**
 * A message half in view (spec §4): read, once, when it is someone else's; the read point moves up.
 * An own message reads nothing (it is never unread): the read point must not pass another person's
 * message without a read receipt for it or a later one, as it is the receipt floor (state/receipts.ts).
 */
function messageVisible(
  state: EngineState,
  conversationId: number,
  messageId: number,
  effects: EngineEffect[],
): EngineState {
  const message = getMessage(state, conversationId, messageId) ?? state.conversations[conversationId]?.last_message ?? undefined;
  // A message that is not loaded is not on screen; whose it is is unknown, so it reads nothing either.
  if (!message || message.id !== messageId || state.selfId === null || message.user_id === state.selfId) return state;
  // Planned before the read point moves to it, which then records it as sent.
  planReceiptBeforeRead(state, effects, conversationId, messageId, 'read', 0);
  return markReadUpTo(state, conversationId, messageId);
}
