import * as Comlink from 'comlink';
import { BehaviorSubject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ClientServer, type ClientObserver } from '../../../src/worker/clientServer';
import type { EngineByName } from '../../../src/worker/currentEngine';
import { ClientRegistry, HEARTBEAT_INTERVAL_MS, SILENT_AFTER_MS, tabLockName } from '../../../src/worker/liveness';
import { StreamDecoder } from '../../../src/worker/streamDecoder';
import { manualClock } from './manualClock';
import { quietLifecycle } from './quietLifecycle';

function recordingBackend() {
  const state$ = new BehaviorSubject<unknown>('first');
  const commands: { name: string; args: readonly unknown[] }[] = [];
  const backend: EngineByName = {
    query: () => state$ as Observable<unknown>,
    invoke: async (name, args) => {
      commands.push({ name, args });
      return undefined;
    },
  };
  return { backend, state$, commands };
}

/** A client's observer that decodes what crossed; `released` counts how often its proxy was let go. */
function recordingObserver() {
  const values: unknown[] = [];
  const decoder = new StreamDecoder();
  let released = 0;
  const observer = {
    next: (wire) => void values.push(decoder.decode(wire)),
    error: (e) => void values.push({ error: e }),
    complete: () => void values.push('complete'),
    [Comlink.releaseProxy]: () => {
      released += 1;
    },
  } as ClientObserver;
  return { observer, values, released: () => released };
}

/** A client of `backend`; values go out as they come (no frame's wait), so the test sees each. */
const client = (backend: EngineByName, now: () => number, onDrop?: () => void) =>
  new ClientServer({ engine: backend, lifecycle: quietLifecycle, now, schedule: (run) => run(), ...(onDrop ? { onDrop } : {}) });

describe('a client of the engine', () => {
  it('streams a query until unsubscribed, then releases the observer once', () => {
    const { backend, state$ } = recordingBackend();
    const host = client(backend, () => 0);
    const { observer, values, released } = recordingObserver();
    const unsubscribe = host.subscribe('session', [], observer);
    state$.next('second');
    unsubscribe();
    unsubscribe();
    state$.next('third');
    expect(values).toEqual(['first', 'second']);
    expect(released()).toBe(1);
    expect(host.subscriptionCount).toBe(0);
  });

  it('refuses names that are not engine queries or commands', async () => {
    const { backend } = recordingBackend();
    const host = client(backend, () => 0);
    const { observer, released } = recordingObserver();
    expect(() => host.subscribe('constructor', [], observer)).toThrow(TypeError);
    expect(released()).toBe(1);
    await expect(host.invoke('stop', [])).rejects.toThrow(TypeError);
    await expect(host.invoke('requestPin', 'not a list')).rejects.toThrow(TypeError);
  });

  it('when dropped, ends its subscriptions and closes the tabs it reported', async () => {
    const { backend, state$, commands } = recordingBackend();
    let dropped = 0;
    const host = client(backend, () => 0, () => (dropped += 1));
    const { observer, values, released } = recordingObserver();
    host.subscribe('session', [], observer);
    const tab = { visible: true, focused: true, openConversationId: 4 };
    await host.invoke('setTabState', ['tab-a', tab]);
    await host.invoke('setTabState', ['tab-b', tab]);
    await host.invoke('closeTab', ['tab-b']);
    host.drop();
    host.drop();
    state$.next('after');
    await Promise.resolve();
    expect(values).toEqual(['first']);
    expect(released()).toBe(1);
    expect(dropped).toBe(1);
    expect(commands.slice(3)).toEqual([{ name: 'closeTab', args: ['tab-a'] }]);
    await expect(host.invoke('refreshConversations', [])).rejects.toThrow();
  });
});

describe('the heartbeat sweep', () => {
  it('drops a client that stopped beating, keeps one that beats', async () => {
    const { clock, advance } = manualClock();
    const { backend } = recordingBackend();
    const registry = new ClientRegistry(clock, async () => new Set());
    const alive = client(backend, clock.now);
    const dead = client(backend, clock.now);
    registry.add(alive);
    registry.add(dead);
    for (let t = 0; t < SILENT_AFTER_MS + 2 * HEARTBEAT_INTERVAL_MS; t += HEARTBEAT_INTERVAL_MS) {
      alive.beat(null);
      await advance(HEARTBEAT_INTERVAL_MS);
    }
    expect(dead.isDropped).toBe(true);
    expect(alive.isDropped).toBe(false);
    expect(registry.size).toBe(1);
    registry.stop();
  });

  it('keeps a silent client while its tab still holds its lock (a throttled background tab)', async () => {
    const { clock, advance } = manualClock();
    const { backend } = recordingBackend();
    const held = new Set([tabLockName('tab-1')]);
    const registry = new ClientRegistry(clock, async () => held);
    const host = client(backend, clock.now);
    host.beat(tabLockName('tab-1'));
    registry.add(host);
    await advance(SILENT_AFTER_MS * 4);
    expect(host.isDropped).toBe(false);
    // The tab is gone: the browser freed its lock.
    held.clear();
    await advance(HEARTBEAT_INTERVAL_MS);
    expect(host.isDropped).toBe(true);
  });

  it('decides by silence alone where the Web Locks API is missing', async () => {
    const { clock, advance } = manualClock();
    const { backend } = recordingBackend();
    const registry = new ClientRegistry(clock, async () => null);
    const host = client(backend, clock.now);
    host.beat(tabLockName('tab-1'));
    registry.add(host);
    await advance(SILENT_AFTER_MS);
    expect(host.isDropped).toBe(false);
    await advance(HEARTBEAT_INTERVAL_MS);
    expect(host.isDropped).toBe(true);
  });
});
