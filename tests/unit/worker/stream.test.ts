import { BehaviorSubject, type Observable } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { realClock } from '../../../src/engine/clock';
import { openBroadcastChannel } from '../../../src/worker/channel';
import { LEADER_CHANNEL, randomId } from '../../../src/worker/linkProtocol';
import { ClientRegistry } from '../../../src/worker/liveness';
import type { EngineByName } from '../../../src/worker/currentEngine';
import { LeaderLink } from '../../../src/worker/leaderLink';
import { LeaderLinkServer } from '../../../src/worker/leaderLinkServer';
import { StreamEncoder, type WireValue } from '../../../src/worker/streamCodec';
import { StreamDecoder } from '../../../src/worker/streamDecoder';
import { StreamSenders } from '../../../src/worker/streamSender';
import { quietLifecycle } from './quietLifecycle';

interface Row {
  id: number;
  name: string;
}

const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ id: i, name: `Chat ${i}` }));

/** Encodes each value, crosses it as a port would (a structured clone), and decodes it. */
function crossing() {
  const encoder = new StreamEncoder();
  const decoder = new StreamDecoder();
  const wires: WireValue[] = [];
  return {
    wires,
    cross<T>(value: T): T {
      const wire = structuredClone(encoder.encode(value));
      wires.push(wire);
      return decoder.decode(wire) as T;
    },
  };
}

describe('the stream codec', () => {
  it('sends only the rows that changed, and the tab keeps the objects of the others', () => {
    const { cross, wires } = crossing();
    const first = rows(5_000);
    const seen1 = cross(first);
    expect(seen1).toEqual(first);
    // One row changes and moves to the top, one is added, one is removed.
    const changed = { id: 7, name: 'Chat 7 renamed' };
    const second = [changed, { id: 5_000, name: 'New' }, ...first.filter((r) => r.id !== 7 && r.id !== 9)];
    const seen2 = cross(second);
    expect(seen2).toEqual(second);
    expect(wires[1]).toMatchObject({ $bridge: 'rows', rows: { fresh: [changed, { id: 5_000, name: 'New' }] } });
    // Unchanged rows are the tab's objects from before: a list keyed by identity re-renders two rows.
    expect(seen2[2]).toBe(seen1[0]);
    expect(seen2.slice(2).every((row) => seen1.includes(row))).toBe(true);
    expect(JSON.stringify(wires[1]).length).toBeLessThan(JSON.stringify(second).length / 10);
  });

  it('handles arrays inside an object (a message window) and keeps its key order', () => {
    const { cross, wires } = crossing();
    const messages = rows(100);
    const one = { messages, hasOlder: true, loaded: true };
    cross(one);
    const two = { messages: [...messages, { id: 100, name: 'latest' }], hasOlder: false, loaded: true };
    const seen = cross(two);
    expect(seen).toEqual(two);
    expect(Object.keys(seen)).toEqual(['messages', 'hasOlder', 'loaded']);
    expect(wires[1]).toMatchObject({ $bridge: 'object', rows: { messages: { fresh: [{ id: 100, name: 'latest' }] } } });
  });

  it('sends values without reusable rows whole, and plain values as they are', () => {
    const { cross, wires } = crossing();
    expect(cross(3)).toBe(3);
    expect(cross([1, 2, 3])).toEqual([1, 2, 3]);
    expect(cross([1, 2])).toEqual([1, 2]);
    expect(cross(null)).toBeNull();
    expect(cross(rows(2))).toEqual(rows(2));
    expect(cross(rows(2))).toEqual(rows(2));
    expect(wires.map((w) => w.$bridge)).toEqual(['value', 'value', 'value', 'value', 'value', 'value']);
  });

  it('refuses a delta against a value the tab never got', () => {
    const encoder = new StreamEncoder();
    const decoder = new StreamDecoder();
    const list = rows(3);
    decoder.decode(encoder.encode(list));
    encoder.encode([...list, { id: 3, name: 'lost on the way' }]);
    const wire = encoder.encode([...list, { id: 3, name: 'lost on the way' }, { id: 4, name: 'next' }]);
    expect(() => decoder.decode(wire)).toThrow(/does not match/);
  });
});

describe('the stream senders', () => {
  function manualSchedule() {
    const queue: (() => void)[] = [];
    return { schedule: (run: () => void) => void queue.push(run), run: () => queue.splice(0).forEach((r) => r()) };
  }

  it('sends a first value at once and a burst after it as one value, the latest', () => {
    const { schedule, run } = manualSchedule();
    const senders = new StreamSenders(schedule);
    const sent: unknown[] = [];
    const decoder = new StreamDecoder();
    const sender = senders.open((wire) => void sent.push(decoder.decode(wire)));
    sender.next(0);
    expect(sent).toEqual([0]);
    for (let i = 1; i <= 100; i++) sender.next(i);
    expect(sent).toEqual([0]);
    run();
    expect(sent).toEqual([0, 100]);
    run();
    expect(sent).toEqual([0, 100]);
  });

  it('sends what is pending before a new first value, an end, or when flushed; nothing after close', () => {
    const { schedule } = manualSchedule();
    const senders = new StreamSenders(schedule);
    const log: string[] = [];
    const a = senders.open((wire) => void log.push(`a${String(new StreamDecoder().decode(wire))}`));
    const b = senders.open((wire) => void log.push(`b${String(new StreamDecoder().decode(wire))}`));
    a.next(1);
    a.next(2);
    b.next(1);
    expect(log).toEqual(['a1', 'a2', 'b1']);
    a.next(3);
    a.before();
    expect(log).toEqual(['a1', 'a2', 'b1', 'a3']);
    b.next(2);
    senders.flush();
    expect(log.at(-1)).toBe('b2');
    b.next(3);
    b.close();
    senders.flush();
    expect(log.at(-1)).toBe('b2');
  });
});

describe('the follower link streams with the codec', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it('delivers a burst as its latest value, before the result of the command that caused it', async () => {
    const list$ = new BehaviorSubject<readonly Row[]>(rows(1_000));
    const backend: EngineByName = {
      query: () => list$ as Observable<unknown>,
      invoke: async () => {
        // A burst: fifty updates, each changing one row.
        for (let i = 0; i < 50; i++) {
          const next = list$.value.slice();
          next[i] = { id: i, name: `Chat ${i} v2` };
          list$.next(next);
        }
        return 'done';
      },
    };
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
    const followerChannel = openBroadcastChannel(LEADER_CHANNEL);
    const remote = new LeaderLink({
      leaderId,
      leaderChannel: followerChannel,
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
      server.stop();
      registry.stop();
      leaderChannel.close();
      followerChannel.close();
    });
    const seen: (readonly Row[])[] = [];
    const sub = remote.query('conversations', []).subscribe((v) => seen.push(v as readonly Row[]));
    cleanups.push(() => sub.unsubscribe());
    await expect.poll(() => seen.length).toBe(1);
    expect(await remote.invoke('refreshConversations', [])).toBe('done');
    // The result came after the values: the follower already holds the latest list, in one value.
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(list$.value);
    expect(seen[1]?.[999]).toBe(seen[0]?.[999]);
    expect(seen[1]?.[0]).not.toBe(seen[0]?.[0]);
  });
});
