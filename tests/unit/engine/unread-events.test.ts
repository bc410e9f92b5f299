import { describe, expect, it } from 'vitest';
import type { NotificationRequest } from '../../../src/engine/api';
import { Notifier } from '../../../src/engine/notifications/notifier';
import { countsAsUnread, DEFAULT_APP_SETTINGS, isSystemEvent, shouldNotify } from '../../../src/engine/rules';
import { createConversationListSelector, selectConversation } from '../../../src/engine/state/conversationList';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import type { EngineEffect, EngineState } from '../../../src/engine/state/types';
import { TabRegistry } from '../../../src/engine/tabs/tabs';
import type { EventType, Message } from '../../../src/protocol/entities';
import { visibleConversations } from '../../../src/ui/inbox/filters';
import { ALICE, BOB, SELF, ctx, frame, listed, loadedState, message, run } from './state.fixtures';

/**
 * Issue 10, "Unread counts": system events (renames, picture changes, members added or removed, admin
 * changes) do not count toward unread counts, badges, the Unread filter or notifications; messages do.
 * The server does not count them either (tests/server/conversations-unread.test.ts), so both agree.
 */

/** A system message as the server sends it (server/domain/messages.ts postSystemEvent). */
const event = (id: number, eventType: EventType, userId = BOB, details: NonNullable<Message['attachment']>['event'] = {}) =>
  message(id, {
    user_id: userId,
    type: 'system',
    message: '',
    attachment: { type: 'event', event_type: eventType, event: details },
  });

const EVENTS: [EventType, NonNullable<Message['attachment']>['event']][] = [
  ['conversation_renamed', { name: 'Book club' }],
  ['conversation_description_changed', { description: 'Monthly' }],
  ['conversation_picture_change', {}],
  ['user_added', { user_id: ALICE, user_ids: [ALICE] }],
  ['user_removed', { user_id: ALICE }],
];

const arrive = (m: Message, eventId: number) => frame('conversation_message', { conversation_id: 10, message: m }, eventId);
/** Events 4..8 from Bob, one of each kind. */
const bobsEvents = (from = 4) => EVENTS.map(([type, details], i) => arrive(event(from + i, type, BOB, details), from + i));
const announced = (effects: EngineEffect[]) => effects.filter((e) => e.type === 'incomingMessage');
const row = (state: EngineState) => selectConversation(state, 10);
const unreadFilter = (state: EngineState) =>
  visibleConversations(createConversationListSelector()(state), 'unread', '').map((i) => i.conversation.id);

describe('what counts as unread (rules/unread.ts)', () => {
  it('a system message is an event by its type or by its attachment', () => {
    expect(isSystemEvent(event(4, 'conversation_renamed'))).toBe(true);
    expect(isSystemEvent(message(4, { type: 'system' }))).toBe(true);
    expect(isSystemEvent(message(4, { attachment: { type: 'event', event_type: 'user_added' } }))).toBe(true);
    expect(isSystemEvent(message(4))).toBe(false);
    expect(isSystemEvent(message(4, { attachment: { type: 'image', url: 'x' } }))).toBe(false);
  });

  it('only another user’s message that is not an event counts', () => {
    expect(countsAsUnread(message(4, { user_id: BOB }), SELF)).toBe(true);
    expect(countsAsUnread(message(4, { user_id: SELF }), SELF)).toBe(false);
    expect(countsAsUnread(event(4, 'user_added', BOB), SELF)).toBe(false);
    expect(countsAsUnread(message(4, { user_id: BOB }), null)).toBe(false);
  });
});

describe('system events and the unread count (issue 10)', () => {
  it('events from others in a chat that is not open count nothing: no badge, not in the Unread filter, no notification', () => {
    const { state, effects } = run(loadedState(), bobsEvents());
    expect(row(state)).toMatchObject({ unreadCount: 0, isUnread: false });
    expect(state.conversations[10]).toMatchObject({ unread_message_count: 0, is_unread: false });
    expect(unreadFilter(state)).toEqual([]);
    expect(announced(effects)).toEqual([]);
    // They are stored and shown: the last one is the chat's last message.
    expect(state.conversations[10]?.last_message?.id).toBe(8);
    expect(state.windows[10]?.ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a real message after events counts once and is announced; events after it add nothing', () => {
    const { state, effects } = run(loadedState(), [
      ...bobsEvents(4),
      arrive(message(9, { user_id: BOB }), 9),
      ...bobsEvents(10),
    ]);
    expect(row(state)).toMatchObject({ unreadCount: 1, isUnread: true });
    expect(state.conversations[10]?.unread_message_count).toBe(1);
    expect(unreadFilter(state)).toEqual([10]);
    expect(announced(effects).map((e) => e.type === 'incomingMessage' && e.message.id)).toEqual([9]);
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 3, lastReceivedMessageId: 9 });
  });

  it('the server’s count of a snapshot stands: events it did not count stay uncounted', () => {
    const state = run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      { type: 'conversationsLoaded', conversations: [listed(10, event(9, 'user_added'), { unread_message_count: 0 })] },
      ...bobsEvents(10),
    ]).state;
    expect(row(state)).toMatchObject({ unreadCount: 0, isUnread: false });
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 9, lastReceivedMessageId: 9 });
  });

  it('in an open chat the read point passes events (read receipts as for any message), and nothing is counted', () => {
    const { state, effects } = run(loadedState(), bobsEvents(), ctx([10]));
    expect(state.unread[10]?.lastReadMessageId).toBe(8);
    expect(state.unread[10]?.lastReceivedMessageId).toBe(3);
    expect(row(state)).toMatchObject({ unreadCount: 0, isUnread: false });
    expect(announced(effects)).toEqual([]);
  });

  it('a withdrawn read of an event (the chat closed within 500 ms) does not make the chat unread', () => {
    const opened = run(loadedState(), [arrive(event(4, 'conversation_renamed'), 1)], ctx([10])).state;
    const { state } = reduce(opened, { type: 'readWithdrawn', conversationId: 10, messageId: 4 }, ctx());
    expect(state.unread[10]?.lastReadMessageId).toBe(3);
    expect(row(state)).toMatchObject({ unreadCount: 0, isUnread: false });
  });

  it('a withdrawn read of a message before an event leaves just that message unread', () => {
    const opened = run(loadedState(), [arrive(message(4, { user_id: BOB }), 1), arrive(event(5, 'user_added'), 2)], ctx([10])).state;
    const withdrawn = run(opened, [
      { type: 'readWithdrawn', conversationId: 10, messageId: 5 },
      { type: 'readWithdrawn', conversationId: 10, messageId: 4 },
    ]).state;
    expect(row(withdrawn)).toMatchObject({ unreadCount: 1, isUnread: true });
  });

  it('a recount from the loaded messages skips events', () => {
    const unread = run(loadedState(), [
      arrive(message(4, { user_id: BOB }), 1),
      ...bobsEvents(5),
      arrive(message(10, { user_id: BOB }), 10),
      arrive(event(11, 'conversation_renamed'), 11),
    ]).state;
    expect(row(unread)?.unreadCount).toBe(2);
    const seen = reduce(unread, { type: 'messageVisible', conversationId: 10, messageId: 4 }, ctx([10])).state;
    expect(row(seen)?.unreadCount).toBe(1);
  });

  it('hiding or deleting an event takes nothing off the count', () => {
    const unread = run(loadedState(), [arrive(message(4, { user_id: BOB }), 1), arrive(event(5, 'user_removed'), 2)]).state;
    const { state } = reduce(unread, frame('conversation_message_delete', { conversation_id: 10, message_ids: [5], message_stids: [], hidden: true }, 3), ctx());
    expect(row(state)?.unreadCount).toBe(1);
  });

  it('own events are not counted either', () => {
    const { state } = run(loadedState(), [arrive(event(4, 'conversation_renamed', SELF), 1)]);
    expect(row(state)?.unreadCount).toBe(0);
  });
});

describe('reading past events: a chat whose last row is an event does not stay unread', () => {
  /** The server counts Alice's message 4 as unread; Bob's rename (5) and picture change (6) came after it. */
  const counted = () =>
    run(initialState(), [
      { type: 'signedIn', selfId: SELF },
      { type: 'conversationsLoaded', conversations: [listed(10, message(3))] },
      {
        type: 'conversationsLoaded',
        conversations: [listed(10, event(6, 'conversation_picture_change'), { unread_message_count: 1, is_unread: true })],
      },
    ]).state;

  it('the snapshot shows the server’s 1, and the unread filter lists it', () => {
    const state = counted();
    expect(row(state)).toMatchObject({ unreadCount: 1, isUnread: true });
    expect(unreadFilter(state)).toEqual([10]);
  });

  it('reading the message before the events (here or on another device) reads the chat', () => {
    const read = reduce(counted(), frame('self_dlr_sync', { conversation_id: 10, message_id: 4, type: 'read' }, 1), ctx()).state;
    expect(row(read)).toMatchObject({ unreadCount: 0, isUnread: false });
  });

  it('opening the chat reads it, naming its newest row from someone else in the read receipt', () => {
    const { state, effects } = reduce(counted(), { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    expect(row(state)).toMatchObject({ unreadCount: 0, isUnread: false });
    expect(state.unread[10]?.lastReadMessageId).toBe(6);
    // The receipt for 6 moves the server's read marker past Alice's 4 as well.
    expect(effects).toContainEqual(expect.objectContaining({ type: 'sendReceipt', messageId: 6, kind: 'read' }));
  });

  it('an event seen in view reads up to it', () => {
    const loaded = run(counted(), [
      {
        type: 'messagesLoaded',
        conversationId: 10,
        messages: [message(4), event(5, 'conversation_renamed'), event(6, 'conversation_picture_change')],
        older: false,
        pageSize: 20,
      },
    ]).state;
    expect(row(loaded)?.unreadCount).toBe(1);
    const seen = reduce(loaded, { type: 'messageVisible', conversationId: 10, messageId: 6 }, ctx([10])).state;
    expect(row(seen)).toMatchObject({ unreadCount: 0, isUnread: false });
  });

  it('a later snapshot that counts 0 (events only after the read point) clears the record', () => {
    const state = run(counted(), [
      { type: 'conversationsLoaded', conversations: [listed(10, event(7, 'user_added'), { unread_message_count: 0 })] },
    ]).state;
    expect(row(state)).toMatchObject({ unreadCount: 0, isUnread: false });
  });
});

describe('no notification for an event', () => {
  const due = {
    selfId: SELF,
    settings: { notificationsEnable: true },
    permission: 'granted' as const,
    openVisibleFocused: false,
    muted: false,
  };

  it('shouldNotify says no for an event from someone else, yes for their message', () => {
    expect(shouldNotify({ ...due, message: event(4, 'user_added') })).toBe(false);
    expect(shouldNotify({ ...due, message: message(4, { user_id: BOB }) })).toBe(true);
  });

  it('the notifier asks no tab to show an event', () => {
    const tabs = new TabRegistry();
    const notifier = new Notifier({
      settings: () => DEFAULT_APP_SETTINGS,
      state: () => loadedState(),
      tabs,
      now: () => 1_700_100_000_000,
    });
    notifier.setNotificationPermission('granted');
    const received: NotificationRequest[] = [];
    notifier.notifications('a').subscribe((r) => received.push(r));
    tabs.set('a', { visible: true, focused: true, openConversationId: null }, 1);
    notifier.incoming(10, event(4, 'conversation_renamed'));
    expect(received).toEqual([]);
    notifier.incoming(10, message(5, { user_id: BOB }));
    expect(received.map((r) => r.messageId)).toEqual([5]);
  });
});
