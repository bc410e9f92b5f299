import type * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import type { WorkerPortApi } from '../../../src/worker/clientServer';
import { MAX_BACKOFF_MS } from '../../../src/worker/reconnectBackoff';
import { TabLink, type Transport } from '../../../src/worker/tabLink';
import { manualClock } from './manualClock';
import { MemoryLockManager } from './memoryLocks';

/** One turn of the event loop: what a round trip over a real port takes at least. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Engine workers as the tab reaches them: each `attach` answers (a port's round trip later) the life lock of
 * its worker. `dead`: the worker is gone as soon as it is reached (its life lock is not held), the way a
 * worker that cannot start, or a lock the browser dropped, looks to the tab.
 */
function workers(locks: MemoryLockManager) {
  const state = { opened: 0, dead: true };
  const workerLocks = locks.context();
  const open = (): Transport => {
    state.opened += 1;
    const name = `messenger-worker:${state.opened}`;
    const alive = !state.dead;
    if (alive) void workerLocks.request(name, {}, () => new Promise<never>(() => undefined));
    const remote = {
      attach: async () => {
        await turn();
        return name;
      },
      reloadRequest: () => new Promise<never>(() => undefined),
      heartbeat: async () => ({ reload: false }),
    } as unknown as Comlink.Remote<WorkerPortApi>;
    return { remote, release: () => undefined };
  };
  return { state, open };
}

describe('a tab whose engine worker keeps dying', () => {
  it('reconnects at once the first time, then backs off: a handful of attempts in 30 s, not hundreds', async () => {
    const { clock, advance } = manualClock();
    const locks = new MemoryLockManager();
    const { state, open } = workers(locks);
    const logged: string[] = [];
    const link = new TabLink('shared-worker', 'tab-1', {
      onReloadRequested: () => undefined,
      locks: locks.context(),
      claims: false,
      log: (message) => logged.push(message),
      open,
      clock,
    });
    link.start();
    // 30 seconds, 50 ms at a time, with the event loop's turns a real port's round trips would take.
    for (let ms = 0; ms < 30_000; ms += 50) {
      await advance(50);
      for (let i = 0; i < 4; i++) await turn();
    }
    expect(state.opened).toBeGreaterThan(3);
    expect(state.opened).toBeLessThanOrEqual(10);
    // Each loss said once (connect.ts passes a rateLimitedLog, which holds the repeats back).
    expect(logged.length).toBeLessThanOrEqual(state.opened);
    expect(new Set(logged)).toEqual(new Set(['the engine worker is gone; reconnecting']));

    // The worker starts working again: the tab is connected within the longest wait, and stays so.
    state.dead = false;
    for (let ms = 0; ms <= MAX_BACKOFF_MS; ms += 500) {
      await advance(500);
      for (let i = 0; i < 4; i++) await turn();
    }
    const connected = state.opened;
    expect(link.link.value).not.toBeNull();
    for (let ms = 0; ms < 60_000; ms += 1_000) {
      await advance(1_000);
      await turn();
    }
    expect(state.opened).toBe(connected);
    link.suspend(false);
  });
});
