import { describe, expect, it } from 'vitest';
import { reduce } from '../../../src/engine/state/reduce';
import { initialState } from '../../../src/engine/state/types';
import { message } from './state.fixtures';

const ctx = { openConversations: new Set<number>(), now: 0 };

describe('socket_loaded and the server database epoch', () => {
  const known = () => {
    let state = reduce(initialState(), { type: 'signedIn', selfId: 1 }, ctx).state;
    state = reduce(state, { type: 'socketLoaded', needSync: false, lastEventId: 40, epoch: 'old' }, ctx).state;
    state = reduce(state, { type: 'messagesLoaded', conversationId: 10, messages: [message(5)], older: false, pageSize: 20 }, ctx).state;
    return state;
  };

  it('keeps what it knows across a reconnect to the same database', () => {
    // Nothing happened while away: the server's position is the one we kept.
    const { state, effects } = reduce(known(), { type: 'socketLoaded', needSync: false, lastEventId: 40, epoch: 'old' }, ctx);
    expect(state.windows[10]?.ids).toEqual([5]);
    expect(state.lastEventId).toBe(40);
    expect(effects).toEqual([]);
  });

  it('forgets everything of another database but the signed-in user, and syncs', () => {
    const { state, effects } = reduce(known(), { type: 'socketLoaded', needSync: true, lastEventId: 3, epoch: 'new' }, ctx);
    expect(state.windows).toEqual({});
    expect(state.messages).toEqual({});
    expect(state).toMatchObject({ selfId: 1, lastEventId: 3, epoch: 'new' });
    expect(effects).toEqual([{ type: 'sync' }]);
  });
});
