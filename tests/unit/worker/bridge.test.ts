import * as Comlink from 'comlink';
import { BehaviorSubject, firstValueFrom, Observable, Subject, type Subscription } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineBackend } from '../../../src/worker/backend';
import { shareLatest, sharedQuery } from '../../../src/worker/bridge';
import { ClientHost } from '../../../src/worker/clientHost';
import { createPortRemote, type EngineRemote } from '../../../src/worker/portRemote';
import type { Link } from '../../../src/worker/tabLink';

interface Row {
  id: number;
  name: string;
}

/** A worker (a ClientHost over a stand-in engine, exposed with Comlink) and a tab's Link to it over a MessageChannel. */
function connect(backend: EngineBackend) {
  const channel = new MessageChannel();
  const host = new ClientHost(backend, () => 0);
  Comlink.expose(createPortRemote(host, { reloadRequested: false, attach: async () => null, whenReloadRequested: () => new Promise<null>(() => undefined) }), channel.port1 as unknown as Comlink.Endpoint);
  const remote = Comlink.wrap<EngineRemote>(channel.port2 as unknown as Comlink.Endpoint);
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
    const backend: EngineBackend = {
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
    const backend: EngineBackend = {
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

describe('shareLatest', () => {
  it('subscribes to its source once, also when a subscriber joins during a value the source gives at once', () => {
    let subscriptions = 0;
    const source = new Observable<number>((s) => {
      subscriptions += 1;
      s.next(1);
    });
    const shared = shareLatest(source);
    const seen: string[] = [];
    const late: Subscription[] = [];
    const first = shared.subscribe((v) => {
      seen.push(`first ${v}`);
      if (late.length === 0) late.push(shared.subscribe((w) => seen.push(`late ${w}`)));
    });
    expect(subscriptions).toBe(1);
    expect(seen).toContain('first 1');
    first.unsubscribe();
    for (const s of late) s.unsubscribe();
  });

  it('replays the latest value to a later subscriber, and starts afresh after the source ended or everyone left', () => {
    const source = new Subject<number>();
    let subscriptions = 0;
    const shared = shareLatest(new Observable<number>((s) => {
      subscriptions += 1;
      return source.subscribe(s);
    }));
    const a: number[] = [];
    const subA = shared.subscribe((v) => a.push(v));
    source.next(1);
    const b: number[] = [];
    const subB = shared.subscribe((v) => b.push(v));
    expect(b).toEqual([1]);
    subA.unsubscribe();
    subB.unsubscribe();
    expect(source.observed).toBe(false);
    const c: number[] = [];
    shared.subscribe((v) => c.push(v)).unsubscribe();
    expect(c).toEqual([]);
    expect(subscriptions).toBe(2);
  });
});

