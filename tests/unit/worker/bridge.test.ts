import * as Comlink from 'comlink';
import { BehaviorSubject, firstValueFrom, Observable, Subject, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { linkedQuery, sharedQuery } from '../../../src/worker/bridge';
import { ClientServer, type WorkerPortApi } from '../../../src/worker/clientServer';
import type { EngineByName } from '../../../src/worker/currentEngine';
import type { Link } from '../../../src/worker/tabLink';
import { quietLifecycle } from './quietLifecycle';

interface Row {
  id: number;
  name: string;
}

/** A worker (a ClientServer over a stand-in engine, exposed with Comlink) and a tab's Link to it over a MessageChannel. */
function connect(backend: EngineByName) {
  const channel = new MessageChannel();
  const host = new ClientServer({ engine: backend, lifecycle: quietLifecycle, now: () => 0 });
  Comlink.expose(host, channel.port1 as unknown as Comlink.Endpoint);
  const remote = Comlink.wrap<WorkerPortApi>(channel.port2 as unknown as Comlink.Endpoint);
  const link: Link = { remote, lost: new Promise<never>(() => undefined) };
  return { host, link, close: () => (channel.port1.close(), channel.port2.close()) };
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

describe('the stream bridge in a tab', () => {
  it('shares one worker subscription among the subscribers of a state query and replays its latest value', async () => {
    const list$ = new BehaviorSubject<readonly Row[]>([{ id: 1, name: 'one' }]);
    let subscribed = 0;
    const backend: EngineByName = {
      query: () => {
        subscribed++;
        return list$ as Observable<unknown>;
      },
      invoke: async () => {
        list$.next([{ id: 2, name: 'two' }, ...list$.value]);
        return undefined;
      },
    };
    const { link, close } = connect(backend);
    closers.push(close);
    const first: (readonly Row[])[] = [];
    const a = sharedQuery<readonly Row[]>(link, 'conversations', []).subscribe((v) => first.push(v));
    await expect.poll(() => first.length).toBe(1);
    await link.remote.invoke('refreshConversations', []);
    // The command's result came after the tab took the value it caused (on the observer's own port).
    expect(first.at(-1)?.map((r) => r.id)).toEqual([2, 1]);
    // A second subscriber gets the same (latest) value at once, without a second worker subscription.
    const second = await firstValueFrom(sharedQuery<readonly Row[]>(link, 'conversations', []));
    expect(second).toBe(first.at(-1));
    expect(subscribed).toBe(1);
    // The unchanged row kept its object across the two values.
    expect(first[1]?.[1]).toBe(first[0]?.[0]);
    a.unsubscribe();
  });

  it('does not share or merge event queries: every event reaches every subscriber once', async () => {
    const removed$ = new Subject<number>();
    const backend: EngineByName = {
      query: () => removed$ as Observable<unknown>,
      invoke: async () => {
        for (let i = 1; i <= 3; i++) removed$.next(i);
        return undefined;
      },
    };
    const { link, close } = connect(backend);
    closers.push(close);
    const a: number[] = [];
    const b: number[] = [];
    const subA = sharedQuery<number>(link, 'removedConversations', []).subscribe((v) => a.push(v));
    await link.remote.invoke('refreshConversations', []);
    expect(a).toEqual([1, 2, 3]);
    // A later subscriber hears no past event, and each new one once, however close together they came.
    const subB = sharedQuery<number>(link, 'removedConversations', []).subscribe((v) => b.push(v));
    await link.remote.invoke('refreshConversations', []);
    expect(b).toEqual([1, 2, 3]);
    expect(a).toEqual([1, 2, 3, 1, 2, 3]);
    subA.unsubscribe();
    subB.unsubscribe();
  });
});

/** A stand-in engine whose one query is `source$`, counting the worker subscriptions made and still open. */
function countingBackend(source$: Observable<unknown>) {
  const stats = { subscribed: 0, open: 0 };
  const backend: EngineByName = {
    query: () =>
      new Observable<unknown>((subscriber) => {
        stats.subscribed++;
        stats.open++;
        const inner = source$.subscribe(subscriber);
        return () => {
          stats.open--;
          inner.unsubscribe();
        };
      }),
    invoke: async () => undefined,
  };
  return { backend, stats };
}

describe('a shared state query in a tab', () => {
  it('makes one worker subscription, also when a subscriber joins during the first value', async () => {
    const { backend, stats } = countingBackend(new BehaviorSubject(1));
    const { link, close } = connect(backend);
    closers.push(close);
    const shared = sharedQuery<number>(link, 'conversations', []);
    const seen: string[] = [];
    const late: Subscription[] = [];
    const first = shared.subscribe((v) => {
      seen.push(`first ${v}`);
      if (late.length === 0) late.push(shared.subscribe((w) => seen.push(`late ${w}`)));
    });
    await expect.poll(() => seen).toEqual(['first 1', 'late 1']);
    expect(stats.subscribed).toBe(1);
    first.unsubscribe();
    for (const s of late) s.unsubscribe();
    await expect.poll(() => stats.open).toBe(0);
  });

  it('replays the latest value to a later subscriber, and starts afresh once everyone left', async () => {
    const source = new BehaviorSubject(1);
    const { backend, stats } = countingBackend(source);
    const { link, close } = connect(backend);
    closers.push(close);
    const a: number[] = [];
    const subA = sharedQuery<number>(link, 'conversations', []).subscribe((v) => a.push(v));
    await expect.poll(() => a).toEqual([1]);
    source.next(2);
    await expect.poll(() => a).toEqual([1, 2]);
    const b: number[] = [];
    const subB = sharedQuery<number>(link, 'conversations', []).subscribe((v) => b.push(v));
    expect(b).toEqual([2]);
    // Other arguments are another query.
    const other = sharedQuery<number>(link, 'conversations', ['x']).subscribe();
    await expect.poll(() => stats.subscribed).toBe(2);
    subA.unsubscribe();
    expect(stats.open).toBe(2);
    subB.unsubscribe();
    other.unsubscribe();
    await expect.poll(() => stats.open).toBe(0);
    // Nothing is replayed from the ended subscription: the next subscriber hears the worker again.
    source.next(3);
    const c: number[] = [];
    const subC = sharedQuery<number>(link, 'conversations', []).subscribe((v) => c.push(v));
    expect(c).toEqual([]);
    await expect.poll(() => c).toEqual([3]);
    expect(stats.subscribed).toBe(3);
    subC.unsubscribe();
  });

  it('starts afresh after the query ended or failed in the worker', async () => {
    let end: 'complete' | 'error' = 'complete';
    let round = 0;
    const source$ = new Observable<number>((subscriber) => {
      subscriber.next(++round);
      if (end === 'complete') subscriber.complete();
      else subscriber.error({ name: 'EngineError', status: 500, message: 'no', fallback: 'no', call: 'conversations' });
    });
    const { backend, stats } = countingBackend(source$);
    const { link, close } = connect(backend);
    closers.push(close);
    const run = () =>
      new Promise<{ values: number[]; ended: string }>((resolve) => {
        const values: number[] = [];
        sharedQuery<number>(link, 'conversations', []).subscribe({
          next: (v) => values.push(v),
          complete: () => resolve({ values, ended: 'complete' }),
          error: () => resolve({ values, ended: 'error' }),
        });
      });
    expect(await run()).toEqual({ values: [1], ended: 'complete' });
    expect(await run()).toEqual({ values: [2], ended: 'complete' });
    end = 'error';
    expect(await run()).toEqual({ values: [3], ended: 'error' });
    expect(await run()).toEqual({ values: [4], ended: 'error' });
    expect(stats.subscribed).toBe(4);
  });
});

describe('a query following the tab’s link', () => {
  it('waits while there is no link, re-subscribes on each new one and lets go of the old', async () => {
    const first = countingBackend(new BehaviorSubject('first'));
    const second = countingBackend(new BehaviorSubject('second'));
    const one = connect(first.backend);
    const two = connect(second.backend);
    closers.push(one.close, two.close);
    const link$ = new BehaviorSubject<Link | null>(null);
    const seen: string[] = [];
    let completed = false;
    const subscription = linkedQuery<string>(link$, 'conversations', []).subscribe({
      next: (v) => seen.push(v),
      complete: () => (completed = true),
    });
    link$.next(one.link);
    await expect.poll(() => seen).toEqual(['first']);
    link$.next(two.link);
    await expect.poll(() => seen).toEqual(['first', 'second']);
    await expect.poll(() => first.stats.open).toBe(0);
    // Suspended: the query lets go of the worker and waits for a link, without ending.
    link$.next(null);
    await expect.poll(() => second.stats.open).toBe(0);
    expect(completed).toBe(false);
    link$.next(two.link);
    await expect.poll(() => seen).toEqual(['first', 'second', 'second']);
    subscription.unsubscribe();
    await expect.poll(() => second.stats.open).toBe(0);
    expect(link$.observed).toBe(false);
  });

  it('completes once the links have and the query on the last one has', async () => {
    const source = new Subject<string>();
    const { backend, stats } = countingBackend(source);
    const { link, close } = connect(backend);
    closers.push(close);
    const link$ = new BehaviorSubject<Link | null>(link);
    let completed = false;
    const seen: string[] = [];
    linkedQuery<string>(link$, 'conversations', []).subscribe({ next: (v) => seen.push(v), complete: () => (completed = true) });
    await expect.poll(() => stats.open).toBe(1);
    source.next('a');
    await expect.poll(() => seen).toEqual(['a']);
    link$.complete();
    expect(completed).toBe(false);
    source.complete();
    await expect.poll(() => completed).toBe(true);

    // Links that end while there is none end it at once.
    const none$ = new BehaviorSubject<Link | null>(null);
    let noneCompleted = false;
    linkedQuery<string>(none$, 'conversations', []).subscribe({ complete: () => (noneCompleted = true) });
    none$.complete();
    expect(noneCompleted).toBe(true);
  });
});
