import * as Comlink from 'comlink';
import { NEVER, Observable, switchMap } from 'rxjs';
import type { QueryName } from './names';
import type { BridgeObserver, EngineRemote } from './portRemote';
import type { Link } from './tabLink';

/**
 * The tab's half of the stream bridge (design.md §5): the worker's `subscribe(query, args, observer)`
 * turned back into an Observable. The observer crosses as a Comlink proxy; the unsubscribe that comes
 * back is a proxy too, and releasing it (on unsubscribe) unsubscribes in the worker and releases the
 * observer's proxy there.
 */
export function bridgeQuery<T>(remote: Comlink.Remote<EngineRemote>, query: QueryName, args: unknown[]): Observable<T> {
  return new Observable<T>((subscriber) => {
    let unsubscribe: Comlink.Remote<() => void> | null = null;
    let done = false;
    const observer = Comlink.proxy<BridgeObserver>({
      next: (value) => subscriber.next(value as T),
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

/** A query that follows the tab's current link: a new link (reconnect) re-subscribes; none (suspended) waits. */
export function linkedQuery<T>(link$: Observable<Link | null>, query: QueryName, args: unknown[]): Observable<T> {
  return link$.pipe(switchMap((link) => (link ? bridgeQuery<T>(link.remote, query, args) : NEVER)));
}
