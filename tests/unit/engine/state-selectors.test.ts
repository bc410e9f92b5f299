import { describe, expect, it } from 'vitest';
import {
  conversationSortTime,
  createConversationListSelector,
  selectConversation,
  selectConversationList,
} from '../../../src/engine/state/conversationList';
import { createMessageWindowSelector, selectMessageWindow } from '../../../src/engine/state/messageWindow';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import { BOB, SELF, at, conversation, ctx, frame, listed, loadedState, message, run } from './state.fixtures';

const listState = () =>
  run(initialState(), [
    { type: 'signedIn', selfId: SELF },
    {
      type: 'conversationsLoaded',
      conversations: [
        listed(10, message(3)),
        // Empty, created after message 3 and before message 5: sorted by created_at.
        conversation(20, { created_at: at(4) }),
        listed(30, message(5, { conversation_id: 30, user_id: SELF, attachment: { type: 'image' } })),
      ],
    },
  ]).state;

describe('conversation list', () => {
  it('is sorted by the latest message time, else the creation time, newest first', () => {
    expect(selectConversationList(listState()).map((i) => i.conversation.id)).toEqual([30, 20, 10]);
  });

  it('re-sorts when a message arrives', () => {
    const { state } = reduce(listState(), frame('conversation_message', { conversation_id: 10, message: message(6) }, 1), ctx());
    expect(selectConversationList(state).map((i) => i.conversation.id)).toEqual([10, 30, 20]);
  });

  it('the same second is ordered by the newer last message', () => {
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      {
        type: 'conversationsLoaded',
        conversations: [
          listed(10, message(3, { created_at: at(9) })),
          listed(20, message(4, { conversation_id: 20, created_at: at(9) })),
        ],
      },
    ]).state;
    expect(selectConversationList(state).map((i) => i.conversation.id)).toEqual([20, 10]);
  });

  it('gives each row its unread state and a last-message preview', () => {
    const [own, empty, other] = selectConversationList(listState());
    expect(own?.preview).toMatchObject({ messageId: 5, fromSelf: true, attachmentType: 'image', text: 'text 5' });
    expect(empty?.preview).toBeNull();
    expect(other?.preview).toMatchObject({ messageId: 3, fromSelf: false, userId: 2, edited: false });
    expect(other).toMatchObject({ unreadCount: 0, isUnread: false });
  });

  it('sort time: last_message_time, else created_at', () => {
    expect(conversationSortTime(conversation(1, { last_message_time: '0', created_at: '100' }))).toBe(100);
    expect(conversationSortTime(conversation(1, { last_message_time: '200', created_at: '100' }))).toBe(200);
  });

  it('memoised: the same array while nothing changed, the same rows for untouched conversations', () => {
    const select = createConversationListSelector();
    const state = listState();
    const first = select(state);
    expect(select(state)).toBe(first);
    expect(select({ ...state, presence: { 7: { online: true, lastSeen: '1' } } })).toBe(first);
    const next = reduce(state, frame('conversation_message', { conversation_id: 10, message: message(6, { user_id: BOB }) }, 1), ctx()).state;
    const second = select(next);
    expect(second).not.toBe(first);
    const row = (list: typeof first, id: number) => list.find((i) => i.conversation.id === id);
    expect(row(second, 20)).toBe(row(first, 20));
    expect(row(second, 30)).toBe(row(first, 30));
    expect(row(second, 10)).not.toBe(row(first, 10));
    expect(row(second, 10)?.unreadCount).toBe(1);
  });

  it('one conversation, or null', () => {
    expect(selectConversation(listState(), 20)?.conversation.id).toBe(20);
    expect(selectConversation(listState(), 99)).toBeNull();
  });
});

describe('message window', () => {
  it('is the loaded messages, oldest first', () => {
    const view = selectMessageWindow(loadedState(), 10);
    expect(view.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(view).toMatchObject({ hasOlder: false, loaded: true });
    expect(selectMessageWindow(loadedState(), 99)).toMatchObject({ messages: [], loaded: false });
  });

  it('memoised per conversation: unchanged by events elsewhere', () => {
    const state = loadedState([conversation(20)]);
    const select = createMessageWindowSelector(10);
    const first = select(state);
    const elsewhere = run(state, [
      { type: 'messagesLoaded', conversationId: 20, messages: [message(40, { conversation_id: 20 })], older: false, pageSize: 20 },
    ]).state;
    expect(select(elsewhere)).toBe(first);
    const here = reduce(elsewhere, frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx()).state;
    expect(select(here).messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });
});
