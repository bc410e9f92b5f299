import { BehaviorSubject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildStamp } from '../../../src/engine/api';
import { realClock } from '../../../src/engine/clock';
import { type ChannelLike, openBroadcastChannel } from '../../../src/worker/channel';
import { EngineHost, type RunningEngine } from '../../../src/worker/engineHost';
import { LEASE_LOCK, randomId } from '../../../src/worker/linkProtocol';
import { MemoryLockManager } from './memoryLocks';

const OLD: BuildStamp = { id: 'old', time: 1 };
const NEW: BuildStamp = { id: 'new', time: 2 };

/** What happened to the engines of one test, in order: which worker started or stopped one. */
type Log = string[];

/**
 * A stand-in engine: one query (`session`, a counter) and one command that moves it. Its `stop` takes a
 * while, as a real one does (it aborts and writes): "stop" is logged when it is done.
 */
function fakeEngine(name: string, log: Log): RunningEngine {
  const count$ = new BehaviorSubject(0);
  return {
    session: () => count$,
    refreshConversations: async () => {
      count$.next(count$.value + 1);
      return undefined;
    },
    whoAmI: () => name,
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      log.push(`stop ${name}`);
    },
  } as unknown as RunningEngine;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Engine workers sharing one lock manager and one leader channel name, as the workers of a profile do. */
function profile() {
  const locks = new MemoryLockManager();
  const channelName = `test-leader-${randomId()}`;
  const log: Log = [];

  /** One engine worker: `kill()` ends it as a crash would (its locks freed, its channels silent). */
  function worker(
    name: string,
    build: BuildStamp,
    options: { clients?: () => number; graceMs?: number; failFirstStart?: boolean; startMs?: number } = {},
  ) {
    let starts = 0;
    const context = locks.context();
    const channels: ChannelLike[] = [];
    const open = (channel: string) => {
      const opened = openBroadcastChannel(channel);
      channels.push(opened);
      return opened;
    };
    const host = new EngineHost({
      workerId: randomId(),
      build,
      locks: context,
      leaderChannel: open(channelName),
      openChannel: open,
      clock: realClock,
      startEngine: async () => {
        if (options.failFirstStart && starts++ === 0) {
          log.push(`failed ${name}`);
          throw new Error('the store would not open');
        }
        if (options.startMs) await new Promise((resolve) => setTimeout(resolve, options.startMs));
        log.push(`start ${name}`);
        return fakeEngine(name, log);
      },
      localClients: options.clients ?? (() => 0),
      ...(options.graceMs !== undefined ? { handoverGraceMs: options.graceMs } : {}),
      log: () => undefined,
    });
    const kill = () => {
      context.kill();
      for (const channel of channels) channel.close();
    };
    cleanups.push(kill);
    return { host, kill };
  }
  return { locks, log, worker };
}

describe('one engine per profile (EngineHost)', () => {
  it('the first worker of a build leads; another of the same build follows it: one engine, calls reach it', async () => {
    const p = profile();
    const a = p.worker('a', OLD);
    const b = p.worker('b', OLD);
    await a.host.attach(true);
    await expect.poll(() => a.host.state).toBe('leading');
    await b.host.attach(true);
    await expect.poll(() => b.host.backend.current).not.toBeNull();
    expect(b.host.state).toBe('electing');
    await b.host.backend.invoke('refreshConversations', []);
    const values: unknown[] = [];
    const sub = a.host.backend.query('session', []).subscribe((v) => values.push(v));
    expect(values).toEqual([1]);
    sub.unsubscribe();
    expect(p.log).toEqual(['start a']);
    expect(p.locks.held(LEASE_LOCK)).toBe(1);
  });

  it('a dead leader is replaced at once by the next worker in line (its lock, not a timeout)', async () => {
    const p = profile();
    const a = p.worker('a', OLD);
    const b = p.worker('b', OLD);
    await a.host.attach(true);
    await expect.poll(() => a.host.state).toBe('leading');
    await b.host.attach(false);
    await expect.poll(() => b.host.backend.current).not.toBeNull();
    const diedAt = Date.now();
    a.kill();
    await expect.poll(() => b.host.state, { interval: 5 }).toBe('leading');
    // The heartbeat would take ANSWER_TIMEOUT_MS (10 s); the freed lease wakes the next worker.
    expect(Date.now() - diedAt).toBeLessThan(1_000);
    expect(p.log).toEqual(['start a', 'start b']);
  });

  it('a follower that asks while the next leader starts its engine is served once it runs (the link loads on demand)', async () => {
    const p = profile();
    const a = p.worker('a', OLD);
    const b = p.worker('b', OLD, { startMs: 300 });
    const c = p.worker('c', OLD);
    await a.host.attach(true);
    await expect.poll(() => a.host.state).toBe('leading');
    await b.host.attach(false);
    await c.host.attach(false);
    await expect.poll(() => b.host.backend.current !== null && c.host.backend.current !== null).toBe(true);
    // b is next in line for the lease; c asks who leads at once, while b's engine is still starting.
    a.kill();
    await expect.poll(() => b.host.state, { interval: 5 }).toBe('leading');
    const values: unknown[] = [];
    const sub = c.host.backend.query('session', []).subscribe((v) => values.push(v));
    await c.host.backend.invoke('refreshConversations', []);
    await expect.poll(() => values.at(-1)).toBe(1);
    sub.unsubscribe();
    expect(p.log).toEqual(['start a', 'start b']);
  });

  it('a page of a new build takes the engine: the old one tells its tabs to reload and stops before the new one starts', async () => {
    const p = profile();
    let oldTabs = 2;
    const old = p.worker('old', OLD, { clients: () => oldTabs });
    await old.host.attach(true);
    await expect.poll(() => old.host.state).toBe('leading');
    const reloaded = old.host.whenReloadRequested();

    const fresh = p.worker('new', NEW);
    await fresh.host.attach(true);
    // The tabs are told which build to land on.
    expect(await reloaded).toEqual(NEW);
    expect(old.host.state).toBe('handingOver');
    // The old engine keeps serving its tabs while they reload (their drafts are saved through it).
    expect(p.log).toEqual(['start old']);
    oldTabs = 0;
    await expect.poll(() => fresh.host.state).toBe('leading');
    expect(p.log).toEqual(['start old', 'stop old', 'start new']);
    expect(old.host.state).toBe('superseded');
    expect(old.host.reloadRequested).toBe(true);
    expect(fresh.host.reloadRequested).toBe(false);
  });

  it('hands over after the grace period even when a tab of the old build does not go', async () => {
    const p = profile();
    const old = p.worker('old', OLD, { clients: () => 1, graceMs: 200 });
    await old.host.attach(true);
    await expect.poll(() => old.host.state).toBe('leading');
    const fresh = p.worker('new', NEW);
    await fresh.host.attach(true);
    await expect.poll(() => fresh.host.state).toBe('leading');
    expect(p.log).toEqual(['start old', 'stop old', 'start new']);
  });

  it('followers of the old build are told to reload and do not take the engine back', async () => {
    const p = profile();
    const leader = p.worker('old-leader', OLD);
    const follower = p.worker('old-follower', OLD);
    await leader.host.attach(true);
    await expect.poll(() => leader.host.state).toBe('leading');
    await follower.host.attach(true);
    await expect.poll(() => follower.host.backend.current).not.toBeNull();

    const fresh = p.worker('new', NEW);
    await fresh.host.attach(true);
    expect(await follower.host.whenReloadRequested()).toEqual(NEW);
    await expect.poll(() => fresh.host.state).toBe('leading');
    expect(follower.host.state).toBe('superseded');
    // The old leader's tab reloads (its worker ends): the lease stays with the new build.
    leader.kill();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(p.log).toEqual(['start old-leader', 'stop old-leader', 'start new']);
  });

  it('a worker of another build that only reconnected (no page loaded) stands aside: its tabs reload', async () => {
    const p = profile();
    const current = p.worker('new', NEW);
    await current.host.attach(true);
    await expect.poll(() => current.host.state).toBe('leading');
    const stale = p.worker('old', OLD);
    await stale.host.attach(false);
    expect(await stale.host.whenReloadRequested()).toEqual(NEW);
    expect(stale.host.state).toBe('superseded');
    expect(current.host.state).toBe('leading');
    // Its lease request is withdrawn: when the leader dies, the old build does not start an engine.
    current.kill();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(p.log).toEqual(['start new']);
  });

  it('an engine that fails to start lets go of the lease and is started again', async () => {
    const p = profile();
    const a = p.worker('a', OLD, { failFirstStart: true });
    await a.host.attach(true);
    await expect.poll(() => a.host.state, { timeout: 3_000 }).toBe('leading');
    expect(p.log).toEqual(['failed a', 'start a']);
  });

  it('a page of the stood-aside build loading again (a rollback) takes the engine back', async () => {
    const p = profile();
    const newer = p.worker('newer', NEW);
    await newer.host.attach(true);
    await expect.poll(() => newer.host.state).toBe('leading');
    const older = p.worker('older', OLD);
    await older.host.attach(false);
    await older.host.whenReloadRequested();
    // The reloaded tab got the same build again: the server serves it, so its page load claims the engine.
    await older.host.attach(true);
    expect(older.host.reloadRequested).toBe(false);
    await expect.poll(() => older.host.state).toBe('leading');
    expect(newer.host.reloadRequested).toBe(true);
    expect(p.log).toEqual(['start newer', 'stop newer', 'start older']);
  });
});
