import { EMPTY, NEVER } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { realClock } from '../../../src/engine/clock';
import { CommunityCommands } from '../../../src/engine/community/communityCommands';
import { LiveState } from '../../../src/engine/state/liveState';
import type { RestClient } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Channel, Community } from '../../../src/protocol/entities';

/**
 * Spec §8 "unexpected errors while joining or leaving", "No channel data available" and "Community ID not
 * available": success answers the engine cannot use reject with those texts (an EngineError, as every
 * command's), and nothing of them goes into the engine's state.
 */

const community = { id: 7, name: 'Kopi Nusantara', is_member: true } as Community;
const channel = { id: 13, name: 'Resep & Tips', community_id: 7, is_member: true, is_community_announcements: false } as Channel;

/** The community commands over the engine's state and a REST client whose every call answers `data` (whatever it is). */
function storeAnswering(data: unknown) {
  const answer = async () => data;
  const rest = {
    joinCommunity: answer,
    leaveCommunity: answer,
    getChannel: answer,
    joinChannel: answer,
    leaveChannel: answer,
  } as unknown as RestClient;
  const state = new LiveState({
    storage: new MemoryStorage(),
    clock: realClock,
    log: () => undefined,
    openConversations: () => new Set(),
    extraOps: () => ({ ops: [] }),
    onEffect: () => undefined,
  });
  const commands = new CommunityCommands({
    rest: () => rest,
    clock: realClock,
    log: () => undefined,
    state,
    messages: () => NEVER,
    outbox: EMPTY,
    enqueueComment: () => Promise.reject(new Error('not used')),
  });
  return Object.assign(commands, { state });
}

const rejection = (work: Promise<unknown>) => work.then(() => null, (error: unknown) => error);

describe('community answers the engine cannot use', () => {
  it.each([
    ['joinCommunity', 'an empty answer', {}],
    ['leaveCommunity', 'no answer data', null],
    ['joinChannel', 'an entity without an id', { channel: { name: 'x' } }],
    ['leaveChannel', 'a text instead of the channel', { channel: 'nope' }],
  ] as const)('%s answered with %s rejects with "An unexpected error occurred"', async (command, _what, data) => {
    const store = storeAnswering(data);
    const error = await rejection(store[command](7));
    expect(error).toMatchObject({ name: 'EngineError', status: 0, message: 'An unexpected error occurred', call: command });
    const state = store.state.value;
    expect(state.communities).toEqual({});
    expect(state.channels).toEqual({});
  });

  it('a channel answered without the channel is "No channel data available"; without its community, "Community ID not available"', async () => {
    expect(await rejection(storeAnswering({}).loadChannel(13))).toMatchObject({
      name: 'EngineError',
      message: 'No channel data available',
      call: 'getChannel',
    });
    const { community_id: _dropped, ...orphan } = channel;
    const store = storeAnswering({ channel: orphan });
    expect(await rejection(store.loadChannel(13))).toMatchObject({ message: 'Community ID not available', call: 'getChannel' });
    expect(store.state.value.channels).toEqual({});
  });

  it('usable answers still go into the state', async () => {
    const joined = storeAnswering({ community });
    await expect(joined.joinCommunity(7)).resolves.toEqual(community);
    expect(joined.state.value.communities[7]).toEqual(community);
    const shown = storeAnswering({ channel });
    await expect(shown.loadChannel(13)).resolves.toEqual(channel);
    expect(shown.state.value.channels[13]).toEqual(channel);
  });
});
