import { describe, expect, it } from 'vitest';
import { selectConversation } from '../../../src/engine/state/conversationList';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import { BOB, SELF, ctx, frame, listed, loadedState, message, run } from './state.fixtures';

const incoming = (id: number, eventId: number, userId = BOB) =>
  frame('conversation_message', { conversation_id: 10, message: message(id, { user_id: userId }) }, eventId);

describe('unread (spec §3, §4)', () => {
  it('counts each incoming message from others in a chat that is not open', () => {
    const { state } = run(loadedState(), [incoming(4, 1), incoming(5, 2)]);
    expect(selectConversation(state, 10)?.unreadCount).toBe(2);
    expect(selectConversation(state, 10)?.isUnread).toBe(true);
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 3, lastReceivedMessageId: 5 });
  });

  it('own messages are never counted, from this device or another', () => {
    const { state } = run(loadedState(), [incoming(4, 1, SELF), { type: 'messageStored', message: message(5, { user_id: SELF }) }]);
    expect(selectConversation(state, 10)?.unreadCount).toBe(0);
    expect(selectConversation(state, 10)?.isUnread).toBe(false);
  });

  it('in an open chat the last read id follows the last received id', () => {
    const { state } = run(loadedState(), [incoming(4, 1), incoming(5, 2)], ctx([10]));
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 5, lastReceivedMessageId: 5 });
    expect(selectConversation(state, 10)?.isUnread).toBe(false);
  });

  it('opening a chat sets the count to 0', () => {
    const unread = run(loadedState(), [incoming(4, 1), incoming(5, 2)]).state;
    const { state } = reduce(unread, { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    expect(selectConversation(state, 10)?.unreadCount).toBe(0);
    expect(state.unread[10]?.lastReadMessageId).toBe(5);
  });

  it('a message seen in view raises the read point and recounts from the loaded messages', () => {
    const unread = run(loadedState(), [incoming(4, 1), incoming(5, 2), incoming(6, 3)]).state;
    const { state } = reduce(unread, { type: 'messageVisible', conversationId: 10, messageId: 4 }, ctx([10]));
    expect(state.unread[10]?.lastReadMessageId).toBe(4);
    expect(selectConversation(state, 10)?.unreadCount).toBe(2);
    const later = reduce(state, { type: 'messageVisible', conversationId: 10, messageId: 6 }, ctx([10])).state;
    expect(selectConversation(later, 10)?.unreadCount).toBe(0);
    // The read point never moves back.
    const back = reduce(later, { type: 'messageVisible', conversationId: 10, messageId: 2 }, ctx([10])).state;
    expect(back.unread[10]?.lastReadMessageId).toBe(6);
  });

  it('uses the server’s count until a local record says otherwise', () => {
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      { type: 'conversationsLoaded', conversations: [listed(10, message(9), { unread_message_count: 3, is_unread: true })] },
    ]).state;
    expect(state.unread[10]).toBeUndefined();
    expect(selectConversation(state, 10)?.unreadCount).toBe(3);
    expect(selectConversation(state, 10)?.isUnread).toBe(true);
    const read = reduce(state, { type: 'conversationOpened', conversationId: 10 }, ctx([10])).state;
    // A snapshot taken before our read receipt landed still says 3: the record knows better.
    const stale = reduce(
      read,
      { type: 'conversationsLoaded', conversations: [listed(10, message(9), { unread_message_count: 3, is_unread: true })] },
      ctx(),
    ).state;
    expect(selectConversation(stale, 10)?.unreadCount).toBe(0);
  });

  it('a snapshot with newer messages from others than the record knows is unread again', () => {
    const read = loadedState();
    const { state } = reduce(
      read,
      { type: 'conversationsLoaded', conversations: [listed(10, message(8), { unread_message_count: 5, is_unread: true })] },
      ctx(),
    );
    expect(selectConversation(state, 10)?.unreadCount).toBe(5);
    expect(state.unread[10]?.lastReceivedMessageId).toBe(8);
  });

  it('messages a list answer already counted are not counted again when their events come after it', () => {
    // The list answer (2 unread: 4 and 5) is taken while the socket replays the events of 4 and 5.
    const listed5 = listed(10, message(5, { user_id: BOB }), { unread_message_count: 2, is_unread: true });
    const snapshot = reduce(loadedState(), { type: 'conversationsLoaded', conversations: [listed5] }, ctx()).state;
    expect(selectConversation(snapshot, 10)?.unreadCount).toBe(2);
    const replayed = run(snapshot, [incoming(4, 1), incoming(5, 2)]);
    expect(selectConversation(replayed.state, 10)?.unreadCount).toBe(2);
    expect(replayed.effects.filter((e) => e.type === 'incomingMessage')).toEqual([]);
    const next = run(replayed.state, [incoming(6, 3)]);
    expect(selectConversation(next.state, 10)?.unreadCount).toBe(3);
    expect(next.effects.filter((e) => e.type === 'incomingMessage')).toHaveLength(1);
  });

  it('the same without an unread record (first list of a fresh client)', () => {
    const listed5 = listed(10, message(5, { user_id: BOB }), { unread_message_count: 2, is_unread: true });
    const snapshot = run(initialState(), [{ type: 'signedIn', selfId: SELF }, { type: 'conversationsLoaded', conversations: [listed5] }]).state;
    const replayed = run(snapshot, [incoming(4, 1), incoming(5, 2)]);
    expect(selectConversation(replayed.state, 10)?.unreadCount).toBe(2);
    expect(replayed.effects.filter((e) => e.type === 'incomingMessage')).toEqual([]);
  });

  it('an own last message never keeps a chat unread once the other person’s message is read', () => {
    // The server counts Bob's 4 unread; our own 5 is the last message; no page is loaded.
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      { type: 'conversationsLoaded', conversations: [listed(10, message(3))] },
      { type: 'conversationsLoaded', conversations: [listed(10, message(5, { user_id: SELF }), { unread_message_count: 1, is_unread: true })] },
    ]).state;
    expect(selectConversation(state, 10)?.unreadCount).toBe(1);
    const read = reduce(state, frame('self_dlr_sync', { conversation_id: 10, message_id: 4, type: 'read' }, 1), ctx()).state;
    expect(selectConversation(read, 10)?.unreadCount).toBe(0);
    expect(read.unread[10]?.lastReceivedMessageId).toBeLessThanOrEqual(read.unread[10]?.lastReadMessageId ?? 0);
  });

  it('reading the first of several unread messages the server counted leaves the rest unread', () => {
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      { type: 'conversationsLoaded', conversations: [listed(10, message(3, { user_id: BOB }), { unread_message_count: 3, is_unread: true })] },
      { type: 'messagesLoaded', conversationId: 10, messages: [message(1), message(2), message(3, { user_id: BOB })], older: false, pageSize: 20 },
    ]).state;
    const seen = reduce(state, { type: 'messageVisible', conversationId: 10, messageId: 1 }, ctx([10])).state;
    expect(selectConversation(seen, 10)?.unreadCount).toBe(2);
  });

  it('an own message seen in view reads nothing', () => {
    const unread = run(loadedState(), [incoming(4, 1), incoming(5, 2, SELF)]).state;
    const { state, effects } = reduce(unread, { type: 'messageVisible', conversationId: 10, messageId: 5 }, ctx([10]));
    expect(state).toBe(unread);
    expect(effects).toEqual([]);
  });

  it('a snapshot that says all is read does not hide a message that arrived after it', () => {
    const unread = run(loadedState(), [incoming(4, 1)]).state;
    const { state } = reduce(
      unread,
      { type: 'conversationsLoaded', conversations: [listed(10, message(3), { unread_message_count: 0 })] },
      ctx(),
    );
    expect(selectConversation(state, 10)?.unreadCount).toBe(1);
  });

  it('a snapshot that says all is read (read on another device while offline) clears the record', () => {
    const unread = run(loadedState(), [incoming(4, 1)]).state;
    const { state } = reduce(
      unread,
      { type: 'conversationsLoaded', conversations: [listed(10, message(4, { user_id: BOB }), { unread_message_count: 0 })] },
      ctx(),
    );
    expect(selectConversation(state, 10)?.isUnread).toBe(false);
  });
});
