import { describe, expect, it } from 'vitest';
import { reduce } from '../../../src/engine/state/reduce';
import { selectMessageWindow } from '../../../src/engine/state/messageWindow';
import { initialState } from '../../../src/engine/state/types';
import type { EngineEvent, EngineState } from '../../../src/engine/state/types';
import { ALICE, SELF, conversation, ctx, frame, listed, loadedState, loadedMessage, message, run } from './state.fixtures';

const ids = (state: EngineState, conversationId = 10) =>
  selectMessageWindow(state, conversationId).messages.map((m) => m.id);

const page = (from: number, to: number, conversationId = 10) =>
  Array.from({ length: to - from + 1 }, (_, i) => message(from + i, { conversation_id: conversationId }));

/** Chat 10 listed with its latest page (messages 21 to 40) loaded, then `more` events. */
const latestPageLoaded = (...more: EngineEvent[]) =>
  run(initialState(), [
    { type: 'signedIn', selfId: SELF },
    { type: 'conversationsLoaded', conversations: [listed(10, message(40))] },
    { type: 'messagesLoaded', conversationId: 10, messages: page(21, 40), older: false, pageSize: 20 },
    ...more,
  ]).state;

describe('event ids', () => {
  it('applies each event exactly once: an id already applied is ignored', () => {
    const event = frame('conversation_message', { conversation_id: 10, message: message(4) }, 7);
    const first = reduce({ ...loadedState(), lastEventId: 6 }, event, ctx());
    expect(first.state.lastEventId).toBe(7);
    expect(first.state.conversations[10]?.unread_message_count).toBe(1);
    const again = reduce(first.state, event, ctx());
    expect(again.state).toBe(first.state);
    expect(again.effects).toEqual([]);
    const older = reduce(first.state, frame('deleted_conversation', { conversation_id: 10 }, 3), ctx());
    expect(older.state).toBe(first.state);
  });

  it('an id that skips ahead is applied and asks for a sync', () => {
    const { state, effects } = reduce(
      { ...loadedState(), lastEventId: 6 },
      frame('inbox_channel_added', { conversation_id: 30, community_id: null }, 9),
      ctx(),
    );
    expect(state.lastEventId).toBe(9);
    expect(effects).toEqual([{ type: 'refetchConversations' }, { type: 'sync' }]);
  });

  it('the next id in order asks for nothing more', () => {
    const { effects } = reduce(
      { ...loadedState(), lastEventId: 6 },
      frame('message_dlr2', { conversation_id: 10, message_id: 3, user_id: ALICE, type: 'read' }, 7),
      ctx(),
    );
    expect(effects).toEqual([]);
  });

  it('a fresh client (no id yet) takes whatever id comes without a sync', () => {
    const { state, effects } = reduce(
      loadedState(),
      frame('message_dlr2', { conversation_id: 10, message_id: 3, user_id: ALICE, type: 'read' }, 40),
      ctx(),
    );
    expect(state.lastEventId).toBe(40);
    expect(effects).toEqual([]);
  });
});

describe('socketLoaded', () => {
  const known = { ...loadedState(), lastEventId: 12, epoch: 'db1' };

  it('same epoch, no need_sync: keeps the state (only presence is forgotten: it is not replayed) and asks nothing', () => {
    const { state, effects } = reduce(known, { type: 'socketLoaded', needSync: false, lastEventId: 12, epoch: 'db1' }, ctx());
    expect({ ...state, presenceRound: known.presenceRound }).toEqual(known);
    expect(state.presenceRound).toBe(known.presenceRound + 1);
    expect(state.conversations).toBe(known.conversations);
    expect(state.messages).toBe(known.messages);
    expect(effects).toEqual([]);
  });

  it('need_sync asks for a sync and stores the server’s id', () => {
    const { state, effects } = reduce(known, { type: 'socketLoaded', needSync: true, lastEventId: 900, epoch: 'db1' }, ctx());
    expect(effects).toEqual([{ type: 'sync' }]);
    expect(state.lastEventId).toBe(900);
  });

  it('a different epoch asks for a sync and takes the new database’s id, even a lower one', () => {
    const { state, effects } = reduce(known, { type: 'socketLoaded', needSync: false, lastEventId: 3, epoch: 'db2' }, ctx());
    expect(effects).toEqual([{ type: 'sync' }]);
    expect(state.lastEventId).toBe(3);
    expect(state.epoch).toBe('db2');
  });

  it('a first connect syncs once and keeps the epoch', () => {
    const { state, effects } = reduce(loadedState(), { type: 'socketLoaded', needSync: false, lastEventId: 5, epoch: 'db1' }, ctx());
    expect(effects).toEqual([{ type: 'sync' }]);
    expect(state.epoch).toBe('db1');
    const again = reduce(state, { type: 'socketLoaded', needSync: false, lastEventId: 5, epoch: 'db1' }, ctx());
    expect(again.effects).toEqual([]);
  });
});

describe('the position the server reports (issue 14: a first connection\u2019s gap)', () => {
  const atZero = { ...loadedState(), lastEventId: 0, epoch: 'db1' };

  it('a server position ahead of the last applied event after the replay is a gap: sync', () => {
    // Told position 0 on the first connect, the socket dropped, an event happened, and the server
    // replayed nothing on the reconnect: only its position shows what was missed.
    const { state, effects } = reduce(atZero, { type: 'socketLoaded', needSync: false, lastEventId: 1, epoch: 'db1' }, ctx());
    expect(effects).toEqual([{ type: 'sync' }]);
    expect(state.lastEventId).toBe(1);
  });

  it('a replay that reaches the server position asks for nothing', () => {
    let { state } = reduce(atZero, frame('inbox_channel_added', { conversation_id: 30, community_id: null }, 1), ctx());
    const loaded = reduce(state, { type: 'socketLoaded', needSync: false, lastEventId: 1, epoch: 'db1' }, ctx());
    state = loaded.state;
    expect(loaded.effects).toEqual([]);
    expect(state.lastEventId).toBe(1);
  });

  it('an event it cannot read moves the position: the next reconnect asks for nothing', () => {
    const skipped = reduce(atZero, { type: 'socketSkipped', id: 1 }, ctx());
    expect(skipped.effects).toEqual([]);
    expect(skipped.state.lastEventId).toBe(1);
    const loaded = reduce(skipped.state, { type: 'socketLoaded', needSync: false, lastEventId: 1, epoch: 'db1' }, ctx());
    expect(loaded.effects).toEqual([]);
    expect(reduce(skipped.state, { type: 'socketSkipped', id: 1 }, ctx()).state).toBe(skipped.state);
  });

  it('with the position known at 0, an event that skips ahead is a gap too', () => {
    const { effects } = reduce(atZero, frame('message_dlr2', { conversation_id: 10, message_id: 3, user_id: ALICE, type: 'read' }, 2), ctx());
    expect(effects).toEqual([{ type: 'sync' }]);
  });
});

describe('session', () => {
  it('signedOut returns to the initial state', () => {
    expect(reduce(loadedState(), { type: 'signedOut' }, ctx()).state).toEqual(initialState());
  });

  it('signedIn as another user drops the previous user’s data; the same user keeps it', () => {
    const state = loadedState();
    expect(reduce(state, { type: 'signedIn', selfId: SELF }, ctx()).state).toBe(state);
    const other = reduce(state, { type: 'signedIn', selfId: 42 }, ctx()).state;
    expect(other).toEqual({ ...initialState(), selfId: 42 });
  });
});

describe('conversationsLoaded', () => {
  it('replaces the list, keeping loaded messages of conversations that still exist', () => {
    const state = run(loadedState([conversation(20)]), [
      { type: 'messagesLoaded', conversationId: 20, messages: page(40, 41, 20), older: false, pageSize: 20 },
    ]).state;
    const { state: next } = reduce(state, { type: 'conversationsLoaded', conversations: [listed(20, message(41, { conversation_id: 20 })), conversation(30)] }, ctx());
    expect(Object.keys(next.conversations).map(Number).sort()).toEqual([20, 30]);
    expect(next.windows[10]).toBeUndefined();
    expect(loadedMessage(next, 1)).toBeUndefined();
    expect(ids(next, 20)).toEqual([40, 41]);
    expect(loadedMessage(next, 40, 20)).toBe(loadedMessage(state, 40, 20));
  });

  it('stores a long list in one pass (a copy per conversation made it quadratic)', () => {
    const many = Array.from({ length: 20_000 }, (_, i) => listed(i + 1, message(i + 1, { conversation_id: i + 1 })));
    const signedIn = reduce(initialState(), { type: 'signedIn', selfId: SELF }, ctx()).state;
    const started = performance.now();
    const { state } = reduce(signedIn, { type: 'conversationsLoaded', conversations: many }, ctx());
    const elapsed = performance.now() - started;
    expect(Object.keys(state.conversations)).toHaveLength(20_000);
    // About 10 ms in one pass; the quadratic version took over 1.5 s. The bound leaves room for slow machines.
    expect(elapsed).toBeLessThan(500);
  });

  it('an unchanged list keeps the conversation objects', () => {
    const state = loadedState([conversation(20)]);
    const { state: next } = reduce(state, { type: 'conversationsLoaded', conversations: [listed(10, message(3)), conversation(20)] }, ctx());
    expect(next.conversations).toBe(state.conversations);
  });
});

describe('messagesLoaded', () => {
  it('the latest page replaces the window; a full page means older ones exist', () => {
    const state = latestPageLoaded();
    expect(ids(state)).toEqual(page(21, 40).map((m) => m.id));
    expect(selectMessageWindow(state, 10).hasOlder).toBe(true);
  });

  it('an older page is prepended; a short page means the start of history', () => {
    const state = latestPageLoaded(
      { type: 'messagesLoaded', conversationId: 10, messages: page(11, 20), older: true, pageSize: 20 },
    );
    expect(ids(state)[0]).toBe(11);
    expect(ids(state)).toHaveLength(30);
    expect(selectMessageWindow(state, 10).hasOlder).toBe(false);
  });

  it('a short latest page drops what was loaded before (it is the whole history)', () => {
    const state = run(loadedState(), [
      { type: 'messagesLoaded', conversationId: 10, messages: [message(2), message(3)], older: false, pageSize: 20 },
    ]).state;
    expect(ids(state)).toEqual([2, 3]);
    expect(loadedMessage(state, 1)).toBeUndefined();
    expect(selectMessageWindow(state, 10).hasOlder).toBe(false);
  });

  it('a resync of the latest page keeps the older history it overlaps and drops what vanished', () => {
    const state = latestPageLoaded(
      { type: 'messagesLoaded', conversationId: 10, messages: page(1, 20), older: true, pageSize: 20 },
    );
    const fresh = page(23, 42).filter((m) => m.id !== 30);
    const next = reduce(state, { type: 'messagesLoaded', conversationId: 10, messages: [message(22), ...fresh], older: false, pageSize: 20 }, ctx()).state;
    const got = ids(next);
    expect(got.slice(0, 3)).toEqual([1, 2, 3]);
    expect(got).not.toContain(30);
    expect(got[got.length - 1]).toBe(42);
    expect(loadedMessage(next, 30)).toBeUndefined();
    expect(next.conversations[10]?.last_message?.id).toBe(42);
  });

  it('a message that came by socket while the latest page was on its way stays, and later ones still join', () => {
    // The page answers from before message 4 arrived: [1, 2, 3].
    const inFlight = run(loadedState(), [frame('conversation_message', { conversation_id: 10, message: message(4) }, 1)]).state;
    const { state } = run(inFlight, [
      { type: 'messagesLoaded', conversationId: 10, messages: page(1, 3), older: false, pageSize: 20 },
      frame('conversation_message', { conversation_id: 10, message: message(5) }, 2),
      { type: 'messageStored', message: message(6, { user_id: SELF }) },
    ]);
    expect(ids(state)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(state.conversations[10]?.last_message?.id).toBe(6);
  });

  it('the same with a full page overlapping a longer loaded run (the resync of an open chat)', () => {
    const state = latestPageLoaded(
      { type: 'messagesLoaded', conversationId: 10, messages: page(1, 20), older: true, pageSize: 20 },
      frame('conversation_message', { conversation_id: 10, message: message(41) }, 1),
    );
    const next = run(state, [
      { type: 'messagesLoaded', conversationId: 10, messages: page(21, 40).filter((m) => m.id !== 30), older: false, pageSize: 19 },
      frame('conversation_message', { conversation_id: 10, message: message(42) }, 2),
    ]).state;
    expect(ids(next)).toEqual([...page(1, 29), ...page(31, 42)].map((m) => m.id));
    expect(loadedMessage(next, 30)).toBeUndefined();
  });

  it('loading the latest page of an open chat reads it', () => {
    const { effects, state } = run(
      initialState(),
      [
        { type: 'signedIn', selfId: SELF },
        { type: 'conversationsLoaded', conversations: [listed(10, message(3), { unread_message_count: 2, is_unread: true })] },
        { type: 'messagesLoaded', conversationId: 10, messages: page(1, 3), older: false, pageSize: 20 },
      ],
      ctx([10]),
    );
    expect(effects).toEqual([{ type: 'sendReceipt', conversationId: 10, messageId: 3, kind: 'read', delayMs: 0 }]);
    expect(state.conversations[10]?.unread_message_count).toBe(0);
  });
});

describe('messageStored', () => {
  it('our sent message appears once, whether the answer or the socket echo comes first', () => {
    const sent = message(4, { user_id: SELF, client_id: 77 });
    const answerFirst = run(loadedState(), [
      { type: 'messageStored', message: sent },
      frame('conversation_message', { conversation_id: 10, message: sent }, 1),
    ]);
    const echoFirst = run(loadedState(), [
      frame('conversation_message', { conversation_id: 10, message: sent }, 1),
      { type: 'messageStored', message: sent },
    ]);
    expect(ids(answerFirst.state)).toEqual([1, 2, 3, 4]);
    expect(ids(echoFirst.state)).toEqual([1, 2, 3, 4]);
    expect(answerFirst.effects).toEqual([]);
    expect(echoFirst.effects).toEqual([]);
  });

  it('an edit or reaction answer replaces the loaded message', () => {
    const edited = message(3, { message: 'changed', edited_at: 5 });
    const { state } = reduce(loadedState(), { type: 'messageStored', message: edited }, ctx());
    expect(loadedMessage(state, 3)).toBe(edited);
    expect(ids(state)).toEqual([1, 2, 3]);
  });

  it('an answer about a message older than the loaded run does not open a hole in the window', () => {
    const state = latestPageLoaded();
    const { state: next } = reduce(state, { type: 'messageStored', message: message(5, { user_id: SELF }) }, ctx());
    expect(ids(next)[0]).toBe(21);
    expect(loadedMessage(next, 5)).toBeUndefined();
  });
});

describe('messagesDeleted', () => {
  it('our own delete for me removes the messages', () => {
    const { state } = reduce(loadedState(), { type: 'messagesDeleted', conversationId: 10, messageIds: [1, 2], hidden: true }, ctx());
    expect(ids(state)).toEqual([3]);
  });

  it('our own delete for everybody leaves their tombstones', () => {
    const { state } = reduce(loadedState(), { type: 'messagesDeleted', conversationId: 10, messageIds: [1, 2], hidden: false }, ctx());
    expect(ids(state)).toEqual([1, 2, 3]);
    expect([1, 2, 3].map((id) => loadedMessage(state, id)?.deleted)).toEqual([true, true, undefined]);
    expect(loadedMessage(state, 1)?.message).toBe('');
  });
});

describe('conversationLoaded', () => {
  it('adds or refreshes one conversation', () => {
    const { state } = reduce(loadedState(), { type: 'conversationLoaded', conversation: conversation(20, { name: 'Fresh' }) }, ctx());
    expect(state.conversations[20]?.name).toBe('Fresh');
  });
});
