import * as Comlink from 'comlink';
import { Observable, type Subscriber, Subscription } from 'rxjs';
import { isEventQuery, type QueryName } from './names';
import type { BridgeObserver, EngineRemote } from './portRemote';
import { StreamDecoder } from './streamDecoder';
import type { Link } from './tabLink';

/**
 * The tab's half of the stream bridge (design.md §5): the worker's `subscribe(query, args, observer)`
 * turned back into an Observable, each value rebuilt from what crossed (streamCodec.ts: only the rows
 * that changed; the others keep their objects from the previous value). The observer crosses as a
 * Comlink proxy; the unsubscribe that comes back is a proxy too, and releasing it (on unsubscribe)
 * unsubscribes in the worker and releases the observer's proxy there.
 */
export function bridgeQuery<T>(remote: Comlink.Remote<EngineRemote>, query: QueryName, args: unknown[]): Observable<T> {
  return new Observable<T>((subscriber) => {
    let unsubscribe: Comlink.Remote<() => void> | null = null;
    let done = false;
    const decoder = new StreamDecoder();
    const observer = Comlink.proxy<BridgeObserver>({
      next: (wire) => {
        let value: unknown;
        try {
          value = decoder.decode(wire);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        subscriber.next(value as T);
      },
      error: (error) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    remote.subscribe(query, args, observer).then(
      (remoteUnsubscribe) => {
        if (done) release(remoteUnsubscribe);
        else unsubscribe = remoteUnsubscribe;
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      done = true;
      if (unsubscribe) release(unsubscribe);
      unsubscribe = null;
    };
  });
}

function release(unsubscribe: Comlink.Remote<() => void>): void {
  try {
    // The worker's finalizer of the unsubscribe proxy unsubscribes there.
    unsubscribe[Comlink.releaseProxy]();
  } catch {
    // Already released.
  }
}

/** The bridged queries of each link, by query and arguments: subscriptions in a tab share one worker subscription. */
const sharedQueries = new WeakMap<Link, Map<string, Observable<unknown>>>();

/**
 * `bridgeQuery` shared within the tab: every subscriber of the same state query (same name and
 * arguments) on the same link shares one subscription in the worker, and a later subscriber gets the
 * latest value at once, so a second `engine.conversations()` in a tab costs no crossing of the list.
 * Event queries (names.ts EVENT_QUERIES) are not shared: a past event must not replay.
 */
export function sharedQuery<T>(link: Link, query: QueryName, args: unknown[]): Observable<T> {
  let key: string;
  try {
    key = `${query}:${JSON.stringify(args)}`;
  } catch {
    return bridgeQuery<T>(link.remote, query, args);
  }
  if (isEventQuery(query)) return bridgeQuery<T>(link.remote, query, args);
  let byKey = sharedQueries.get(link);
  if (!byKey) {
    byKey = new Map();
    sharedQueries.set(link, byKey);
  }
  let source = byKey.get(key);
  if (!source) {
    source = shareLatest(bridgeQuery<unknown>(link.remote, query, args));
    byKey.set(key, source);
  }
  return source as Observable<T>;
}

/**
 * A query that follows the tab's current link: a new link (reconnect) re-subscribes; none (suspended) waits.
 * (RxJS's `switchMap` over the links, written out: it and `share` would bring to the entry chunk, which
 * every page loads, the half of RxJS that converts promises and iterables, which the tab never needs.)
 */
export function linkedQuery<T>(link$: Observable<Link | null>, query: QueryName, args: unknown[]): Observable<T> {
  return new Observable<T>((subscriber) => {
    let inner: Subscription | null = null;
    let linksDone = false;
    const links = link$.subscribe({
      next: (link) => {
        inner?.unsubscribe();
        inner = null;
        if (!link) return;
        // Filled once subscribe returns: a query that ends at once finds it still empty.
        const own: { subscription?: Subscription } = {};
        const current = sharedQuery<T>(link, query, args).subscribe({
          next: (value) => subscriber.next(value),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            if (own.subscription !== undefined && inner === own.subscription) inner = null;
            if (linksDone) subscriber.complete();
          },
        });
        own.subscription = current;
        if (!current.closed) inner = current;
      },
      error: (error: unknown) => subscriber.error(error),
      complete: () => {
        linksDone = true;
        if (!inner) subscriber.complete();
      },
    });
    return () => {
      links.unsubscribe();
      inner?.unsubscribe();
    };
  });
}

/**
 * One subscription to `source` for all its subscribers, the latest value replayed to a later one; it ends
 * (and the next subscriber starts afresh) when the source ends or the last subscriber leaves. RxJS's
 * `share({ connector: () => new ReplaySubject(1) })` with every reset on, written out (see linkedQuery).
 */
export function shareLatest<T>(source: Observable<T>): Observable<T> {
  interface Shared {
    subscribers: Set<Subscriber<T>>;
    latest: { value: T } | null;
    connection: Subscription | null;
  }
  let shared: Shared | null = null;
  return new Observable<T>((subscriber) => {
    const current: Shared = (shared ??= { subscribers: new Set(), latest: null, connection: null });
    current.subscribers.add(subscriber);
    if (current.latest) subscriber.next(current.latest.value);
    const each = (f: (s: Subscriber<T>) => void) => [...current.subscribers].forEach(f);
    const end = () => {
      if (shared === current) shared = null;
    };
    if (!current.connection && shared === current) {
      // Marked as connecting before subscribing: a subscriber added during a value the source gives at once
      // joins this connection instead of making a second one.
      const connection = new Subscription();
      current.connection = connection;
      connection.add(source.subscribe({
        next: (value) => {
          current.latest = { value };
          each((s) => s.next(value));
        },
        error: (error: unknown) => {
          end();
          each((s) => s.error(error));
        },
        complete: () => {
          end();
          each((s) => s.complete());
        },
      }));
    }
    return () => {
      current.subscribers.delete(subscriber);
      if (current.subscribers.size > 0) return;
      end();
      current.connection?.unsubscribe();
    };
  });
}
