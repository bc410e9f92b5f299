import { BehaviorSubject, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { EngineBackend } from '../../../src/worker/backend';
import { ClientHost, type HostObserver } from '../../../src/worker/clientHost';
import { ClientRegistry, HEARTBEAT_INTERVAL_MS, SILENT_AFTER_MS, tabLockName } from '../../../src/worker/liveness';
import { manualClock } from './manualClock';

function recordingBackend() {
  const state$ = new BehaviorSubject<unknown>('first');
  const commands: { name: string; args: readonly unknown[] }[] = [];
  const backend: EngineBackend = {
    query: () => state$ as Observable<unknown>,
    invoke: async (name, args) => {
      commands.push({ name, args });
      return undefined;
    },
  };
  return { backend, state$, commands };
}

function recordingObserver() {
  const values: unknown[] = [];
  let released = 0;
  const observer: HostObserver = {
    next: (v) => values.push(v),
    error: (e) => values.push({ error: e }),
    complete: () => values.push('complete'),
    release: () => {
      released += 1;
    },
  };
  return { observer, values, released: () => released };
}

describe('a client of the engine', () => {
  it('streams a query until unsubscribed, then releases the observer once', () => {
    const { backend, state$ } = recordingBackend();
    const host = new ClientHost(backend, () => 0);
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
    const host = new ClientHost(backend, () => 0);
    const { observer, released } = recordingObserver();
    expect(() => host.subscribe('constructor', [], observer)).toThrow(TypeError);
    expect(released()).toBe(1);
    await expect(host.invoke('stop', [])).rejects.toThrow(TypeError);
    await expect(host.invoke('requestPin', 'not a list')).rejects.toThrow(TypeError);
  });

  it('when dropped, ends its subscriptions and closes the tabs it reported', async () => {
    const { backend, state$, commands } = recordingBackend();
    let dropped = 0;
    const host = new ClientHost(backend, () => 0, () => (dropped += 1));
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
    const alive = new ClientHost(backend, clock.now);
    const dead = new ClientHost(backend, clock.now);
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
    const host = new ClientHost(backend, clock.now);
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
    const host = new ClientHost(backend, clock.now);
    host.beat(tabLockName('tab-1'));
    registry.add(host);
    await advance(SILENT_AFTER_MS);
    expect(host.isDropped).toBe(false);
    await advance(HEARTBEAT_INTERVAL_MS);
    expect(host.isDropped).toBe(true);
  });
});
