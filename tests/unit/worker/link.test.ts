import { BehaviorSubject, firstValueFrom, filter, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../../../src/engine/clock';
import { openBroadcastChannel } from '../../../src/worker/channel';
import { LEADER_CHANNEL, randomId } from '../../../src/worker/linkProtocol';
import { ANSWER_TIMEOUT_MS, ClientRegistry } from '../../../src/worker/liveness';
import { CurrentEngine, type EngineByName } from '../../../src/worker/currentEngine';
import { LeaderLink } from '../../../src/worker/leaderLink';
import { LeaderLinkServer } from '../../../src/worker/leaderLinkServer';
import { manualClock } from './manualClock';
import { quietLifecycle } from './quietLifecycle';

/** A stand-in engine: a counter query and commands that change it or fail. */
function counterBackend() {
  const count$ = new BehaviorSubject(0);
  const calls: { name: string; args: readonly unknown[] }[] = [];
  const backend: EngineByName = {
    query: () => count$ as Observable<unknown>,
    invoke: async (name, args) => {
      calls.push({ name, args });
      if (name === 'logout') throw { name: 'EngineError', status: 401, message: 'no', fallback: 'no', call: 'logout' };
      if (name !== 'refreshConversations') return undefined;
      count$.next(count$.value + 1);
      return count$.value;
    },
  };
  return { backend, count$, calls };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function leader(backend: EngineByName) {
  const leaderChannel = openBroadcastChannel(LEADER_CHANNEL);
  const registry = new ClientRegistry(realClock, async () => null);
  const leaderId = randomId();
  const server = new LeaderLinkServer({
    leaderId,
    build: { id: 'test', time: 1 },
    engine: backend,
    leaderChannel,
    openChannel: openBroadcastChannel,
    registry,
    clock: realClock,
    lifecycle: quietLifecycle,
  });
  cleanups.push(() => {
    server.stop();
    registry.stop();
    leaderChannel.close();
  });
  return { server, leaderId };
}

function follower(leaderId: string) {
  const leaderChannel = openBroadcastChannel(LEADER_CHANNEL);
  const remote = new LeaderLink({
    leaderId,
    leaderChannel,
    openChannel: openBroadcastChannel,
    lock: null,
    build: { id: 'test', time: 1 },
    locks: null,
    clock: realClock,
    onLost: () => undefined,
    onReload: () => undefined,
  });
  cleanups.push(() => {
    remote.close();
    leaderChannel.close();
  });
  return remote;
}

describe('the follower link over BroadcastChannel', () => {
  it('gives up on a leader that does not answer: pending commands fail as network errors', async () => {
    const { clock, advance } = manualClock();
    const leaderChannel = openBroadcastChannel(LEADER_CHANNEL);
    let lost = 0;
    const remote = new LeaderLink({
      leaderId: 'nobody',
      leaderChannel,
      openChannel: openBroadcastChannel,
      lock: null,
      build: { id: 'test', time: 1 },
      locks: null,
      clock,
      onLost: () => (lost += 1),
      onReload: () => undefined,
    });
    cleanups.push(() => leaderChannel.close());
    const pending = remote.invoke('refreshConversations', []);
    await advance(ANSWER_TIMEOUT_MS);
    expect(lost).toBe(0);
    await advance(1_000);
    expect(lost).toBe(1);
    expect(remote.isClosed).toBe(true);
    await expect(pending).rejects.toMatchObject({ name: 'EngineError', status: 0, call: 'refreshConversations' });
  });

  it('runs commands and streams queries of the leader engine', async () => {
    const engine = counterBackend();
    const { leaderId } = leader(engine.backend);
    const remote = follower(leaderId);
    const seen: unknown[] = [];
    const sub = remote.query('session', []).subscribe((v) => seen.push(v));
    expect(await remote.invoke('refreshConversations', [])).toBe(1);
    await expect(remote.invoke('logout', [])).rejects.toMatchObject({ status: 401 });
    await expect.poll(() => seen).toEqual([0, 1]);
    sub.unsubscribe();
    // The leader lets go of the engine's stream, so a later change has nowhere to go.
    await expect.poll(() => engine.count$.observed).toBe(false);
    await remote.invoke('refreshConversations', []);
    // A fresh query's first value comes over the same link after anything the old one could still send.
    const later: unknown[] = [];
    const again = remote.query('session', []).subscribe((v) => later.push(v));
    await expect.poll(() => later).toEqual([2]);
    again.unsubscribe();
    expect(seen).toEqual([0, 1]);
    expect(engine.calls.map((c) => c.name)).toEqual(['refreshConversations', 'logout', 'refreshConversations']);
  });

  it('switches to a new leader: queries re-subscribe, tab states are told again', async () => {
    const first = counterBackend();
    const second = counterBackend();
    second.count$.next(100);
    const switching = new CurrentEngine();
    const values: unknown[] = [];
    switching.query('session', []).subscribe((v) => values.push(v));
    // Told before any engine exists: it waits, and goes to each engine in turn.
    void switching.invoke('setTabState', ['tab-1', { visible: true, focused: true, openConversationId: 3 }]);

    const one = leader(first.backend);
    const toFirst = follower(one.leaderId);
    switching.useLeader(toFirst);
    await expect.poll(() => values).toEqual([0]);
    await expect.poll(() => first.calls.map((c) => c.name)).toContain('setTabState');

    const two = leader(second.backend);
    toFirst.close();
    switching.useLeader(follower(two.leaderId));
    await expect.poll(() => values).toEqual([0, 100]);
    await expect.poll(() => second.calls.map((c) => c.name)).toEqual(['setTabState']);
    expect(second.calls[0]?.args).toEqual(['tab-1', { visible: true, focused: true, openConversationId: 3 }]);
    await firstValueFrom(switching.query('session', []).pipe(filter((v) => v === 100)));
  });
});

describe('a leader and followers of other builds', () => {
  it('turns away a follower of another build, or one from before the lease (no build): it reloads', async () => {
    const engine = counterBackend();
    const { leaderId } = leader(engine.backend);
    for (const build of [{ id: 'another', time: 9 }, null]) {
      const leaderChannel = openBroadcastChannel(LEADER_CHANNEL);
      const reloads: unknown[] = [];
      const remote = new LeaderLink({
        leaderId,
        build: build as { id: string; time: number },
        leaderChannel,
        openChannel: openBroadcastChannel,
        lock: null,
        locks: null,
        clock: realClock,
        onLost: () => undefined,
        onReload: (into) => reloads.push(into),
      });
      cleanups.push(() => {
        remote.close();
        leaderChannel.close();
      });
      // A follower from before the lease understands the beat answer: it is sent too.
      await expect.poll(() => reloads.length).toBeGreaterThanOrEqual(1);
      expect(reloads[0]).toBeNull();
    }
    expect(engine.calls).toEqual([]);
  });
});
