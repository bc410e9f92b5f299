import { describe, expect, it } from 'vitest';
import {
  conversationSortTime,
  createConversationListSelector,
  selectConversation,
} from '../../../src/engine/state/conversationList';
import { createMessageWindowSelector, selectMessageWindow } from '../../../src/engine/state/messageWindow';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import type { EngineState } from '../../../src/engine/state/types';
import { ALICE, BOB, SELF, at, conversation, ctx, frame, listed, loadedState, message, run } from './state.fixtures';

/** A fresh memoised list selector per call: what a new subscriber sees. */
const selectConversationList = (state: EngineState) => createConversationListSelector()(state);

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

  it('an event preview carries what its sentence needs, though the row has no member list', () => {
    const removed = message(4, {
      user_id: ALICE,
      type: 'system',
      message: '',
      attachment: { type: 'event', event_type: 'user_removed', event: { user_id: SELF } },
    });
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      { type: 'conversationsLoaded', conversations: [listed(10, removed)] },
    ]).state;
    const [row] = selectConversationList(state);
    expect(row?.conversation.users).toEqual([]);
    expect(row?.preview).toMatchObject({
      eventType: 'user_removed',
      event: { user_id: SELF },
      names: { [ALICE]: 'user 2', [SELF]: 'user 1' },
      selfId: SELF,
    });
    // An ordinary message names nobody.
    expect(selectConversationList(listState())[0]?.preview).toMatchObject({ event: null, names: {} });
  });

  it("names a group's sender for its preview, not a one-to-one chat's, a channel's or one's own (issue 23)", () => {
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      {
        type: 'conversationsLoaded',
        conversations: [
          listed(10, message(3, { user_id: ALICE })),
          listed(20, message(4, { conversation_id: 20, user_id: ALICE }), { is_group: false }),
          listed(30, message(5, { conversation_id: 30, user_id: ALICE }), { group_type: 'channel', community_id: 7 }),
          listed(40, message(6, { conversation_id: 40, user_id: SELF })),
          // A sender past the member list the server gives (500): no name rather than a wrong one.
          listed(50, message(7, { conversation_id: 50, user_id: 99 })),
        ],
      },
    ]).state;
    const names = Object.fromEntries(selectConversationList(state).map((i) => [i.conversation.id, i.preview?.senderName]));
    expect(names).toEqual({ 10: 'user 2', 20: null, 30: null, 40: null, 50: null });
    // The row still carries no member list.
    expect(selectConversationList(state).find((i) => i.conversation.id === 10)?.conversation.users).toEqual([]);
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

  it('a list answer older than a live message keeps the newer last message: preview and order stay', () => {
    const live = reduce(listState(), frame('conversation_message', { conversation_id: 10, message: message(6, { user_id: BOB }) }, 1), ctx()).state;
    // The list was requested before message 6 and answers after it: conversation 10 still ends at 3.
    const { state } = reduce(live, { type: 'conversationsLoaded', conversations: Object.values(listState().conversations) }, ctx());
    const list = selectConversationList(state);
    expect(list.map((i) => i.conversation.id)).toEqual([10, 30, 20]);
    expect(list[0]?.preview?.messageId).toBe(6);
    expect(state.conversations[10]?.last_message_time).toBe(at(6));
    expect(list[0]?.unreadCount).toBe(1);
    // A newer answer (or the same message) is taken as it is.
    const newer = reduce(state, { type: 'conversationLoaded', conversation: listed(10, message(7, { user_id: BOB })) }, ctx()).state;
    expect(newer.conversations[10]?.last_message?.id).toBe(7);
  });

  it('when the last message is deleted for everybody, the row keeps its place and its preview says so', () => {
    const { state, effects } = run(listState(), [frame('conversation_message_delete', { conversation_id: 30, message_ids: [5], message_stids: [], hidden: false }, 1)]);
    expect(effects).toEqual([]);
    const list = selectConversationList(state);
    expect(list.map((i) => i.conversation.id)).toEqual([30, 20, 10]);
    expect(list[0]?.preview).toMatchObject({ messageId: 5, text: '', deleted: true });
  });

  it('when the last message is hidden and not replaceable, the refetched older last message is taken', () => {
    const state = run(listState(), [frame('conversation_message_delete', { conversation_id: 30, message_ids: [5], message_stids: [], hidden: true }, 1)]);
    expect(state.effects).toEqual([{ type: 'refetchConversation', conversationId: 30 }]);
    // Until the answer comes the deleted message is not shown, and the chat keeps its place.
    expect(state.state.conversations[30]?.last_message).toBeNull();
    expect(selectConversationList(state.state).map((i) => i.conversation.id)).toEqual([30, 20, 10]);
    const answer = listed(30, message(2, { conversation_id: 30 }));
    const { state: next } = reduce(state.state, { type: 'conversationLoaded', conversation: answer }, ctx());
    expect(next.conversations[30]?.last_message?.id).toBe(2);
  });

  it('a window behind a hidden last message is not appended to (no hole) until the answer comes', () => {
    const behind = reduce(loadedState(), { type: 'conversationLoaded', conversation: listed(10, message(7)) }, ctx()).state;
    const { state } = run(behind, [
      frame('conversation_message_delete', { conversation_id: 10, message_ids: [7], message_stids: [], hidden: true }, 1),
      frame('conversation_message', { conversation_id: 10, message: message(8) }, 2),
    ]);
    expect(selectMessageWindow(state, 10).messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(state.conversations[10]?.last_message?.id).toBe(8);
  });

  it('memoised: the same array when the unread record moves but no row changes', () => {
    const incoming = (id: number, eventId: number) =>
      frame('conversation_message', { conversation_id: 10, message: message(id, { user_id: BOB }) }, eventId);
    const unread = run(listState(), [incoming(6, 1), incoming(7, 2)]).state;
    const select = createConversationListSelector();
    const first = select(unread);
    // Read up to 6 on another device: 7 is still unread and the count (not loaded, so not recounted) stays 2.
    const next = reduce(unread, frame('self_dlr_sync', { conversation_id: 10, message_id: 6, type: 'read' }, 3), ctx()).state;
    expect(next.unread).not.toBe(unread.unread);
    expect(select(next)).toBe(first);
  });

  it('one conversation, or null', () => {
    expect(selectConversation(listState(), 20)?.conversation.id).toBe(20);
    expect(selectConversation(listState(), 99)).toBeNull();
  });
});

/** Chat 10's window selector with its first view, and the state after a page of chat 20 came in. */
function watchedWindowAndElsewhere() {
  const state = loadedState([conversation(20)]);
  const select = createMessageWindowSelector(10);
  const first = select(state);
  const elsewhere = run(state, [
    { type: 'messagesLoaded', conversationId: 20, messages: [message(40, { conversation_id: 20 })], older: false, pageSize: 20 },
  ]).state;
  return { select, first, elsewhere };
}

describe('message window', () => {
  it('messages are kept per conversation: an event in one chat leaves the others’ maps as they were', () => {
    const state = run(loadedState([conversation(20)]), [
      { type: 'messagesLoaded', conversationId: 20, messages: [message(40, { conversation_id: 20 })], older: false, pageSize: 20 },
    ]).state;
    const next = reduce(state, frame('conversation_message', { conversation_id: 20, message: message(41, { conversation_id: 20 }) }, 1), ctx()).state;
    expect(Object.keys(next.messages)).toEqual(['10', '20']);
    expect(next.messages[10]).toBe(state.messages[10]);
    expect(next.messages[20]).not.toBe(state.messages[20]);
  });

  it('a watched chat’s window is not recomputed when a message elsewhere changes', () => {
    const { select, first, elsewhere } = watchedWindowAndElsewhere();
    // Record which entries of `messages` the selector reads.
    const reads: string[] = [];
    const messages = new Proxy(elsewhere.messages, {
      get: (target, key, receiver) => {
        if (typeof key === 'string') reads.push(key);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(select({ ...elsewhere, messages })).toBe(first);
    expect(reads).toEqual(['10']);
  });

  it('is the loaded messages, oldest first', () => {
    const view = selectMessageWindow(loadedState(), 10);
    expect(view.messages.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(view).toMatchObject({ hasOlder: false, loaded: true });
    expect(selectMessageWindow(loadedState(), 99)).toMatchObject({ messages: [], loaded: false });
  });

  it('memoised per conversation: unchanged by events elsewhere', () => {
    const { select, first, elsewhere } = watchedWindowAndElsewhere();
    expect(select(elsewhere)).toBe(first);
    const here = reduce(elsewhere, frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx()).state;
    expect(select(here).messages.map((m) => m.id)).toEqual([1, 2, 3, 4]);
  });
});

describe('list rows and member lists', () => {
  it('leave out a group’s members, which the one-conversation query keeps; a one-to-one chat keeps its two', () => {
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      {
        type: 'conversationsLoaded',
        conversations: [
          listed(10, message(3)),
          conversation(20, {
            is_group: false,
            users: conversation(0).users.filter((u) => u.user.user_id !== BOB),
            created_at: at(4),
          }),
        ],
      },
    ]).state;
    const [oneToOne, group] = selectConversationList(state);
    expect(group?.conversation).toMatchObject({ id: 10, users: [], member_count: 3 });
    expect(selectConversation(state, 10)?.conversation.users).toHaveLength(3);
    expect(oneToOne?.conversation.users.map((u) => u.user.user_id)).toEqual([SELF, 2]);
    // The stored conversation is untouched.
    expect(state.conversations[10]?.users).toHaveLength(3);
  });
});
