import * as Comlink from 'comlink';
import { EMPTY, Observable, ReplaySubject, share, switchMap } from 'rxjs';
import { isEventQuery, type QueryName } from './names';
import type { ClientObserver, WorkerPortApi } from './clientServer';
import { StreamDecoder } from './streamDecoder';
import type { Link } from './tabLink';

/**
 * The tab's half of the stream bridge (design.md §5): the worker's `subscribe(query, args, observer)`
 * turned back into an Observable, each value rebuilt from what crossed (streamCodec.ts: only the rows
 * that changed; the others keep their objects from the previous value). The observer crosses as a
 * Comlink proxy; the unsubscribe that comes back is a proxy too, and releasing it (on unsubscribe)
 * unsubscribes in the worker and releases the observer's proxy there.
 */
export function bridgeQuery<T>(remote: Comlink.Remote<WorkerPortApi>, query: QueryName, args: unknown[]): Observable<T> {
  return new Observable<T>((subscriber) => {
    let unsubscribe: Comlink.Remote<() => void> | null = null;
    let done = false;
    const decoder = new StreamDecoder();
    const observer = Comlink.proxy<ClientObserver>({
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
    source = bridgeQuery<unknown>(link.remote, query, args).pipe(
      // One worker subscription, its latest value replayed to a later subscriber; once it ends, or its last
      // subscriber leaves, the next subscriber starts afresh (shareReplay would replay a completed one).
      share({
        connector: () => new ReplaySubject<unknown>(1),
        resetOnError: true,
        resetOnComplete: true,
        resetOnRefCountZero: true,
      }),
    );
    byKey.set(key, source);
  }
  return source as Observable<T>;
}

/**
 * A query that follows the tab's current link: a new link (reconnect) re-subscribes; none (suspended) waits.
 * It completes only once the links have and the query on the last one has.
 */
export function linkedQuery<T>(link$: Observable<Link | null>, query: QueryName, args: unknown[]): Observable<T> {
  return link$.pipe(switchMap((link) => (link ? sharedQuery<T>(link, query, args) : EMPTY)));
}
