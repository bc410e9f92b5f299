import { describe, expect, it } from 'vitest';
import { selectConversation, selectIsUnread } from '../../../src/engine/state/conversationList';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import { BOB, SELF, ctx, frame, listed, loadedState, message, run } from './state.fixtures';

const incoming = (id: number, eventId: number, userId = BOB) =>
  frame('conversation_message', { conversation_id: 10, message: message(id, { user_id: userId }) }, eventId);

describe('unread (spec §3, §4)', () => {
  it('counts each incoming message from others in a chat that is not open', () => {
    const { state } = run(loadedState(), [incoming(4, 1), incoming(5, 2)]);
    expect(selectConversation(state, 10)?.unreadCount).toBe(2);
    expect(selectIsUnread(state, 10)).toBe(true);
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 3, lastReceivedMessageId: 5 });
  });

  it('own messages are never counted, from this device or another', () => {
    const { state } = run(loadedState(), [incoming(4, 1, SELF), { type: 'messageStored', message: message(5, { user_id: SELF }) }]);
    expect(selectConversation(state, 10)?.unreadCount).toBe(0);
    expect(selectIsUnread(state, 10)).toBe(false);
  });

  it('in an open chat the last read id follows the last received id', () => {
    const { state } = run(loadedState(), [incoming(4, 1), incoming(5, 2)], ctx([10]));
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 5, lastReceivedMessageId: 5 });
    expect(selectIsUnread(state, 10)).toBe(false);
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
    expect(selectIsUnread(state, 10)).toBe(true);
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
    expect(selectIsUnread(state, 10)).toBe(false);
  });
});
