import { useSubscription } from 'observable-hooks';
import { startTransition, useMemo, useRef, useState } from 'react';
import type { Observable } from 'rxjs';
import type { TabEngine } from '../../engine/api';
import { useEngine } from './EngineContext';

/**
 * The latest value of an observable, or `initial` until it emits. A new observable starts again from
 * `initial`, so a screen never shows one conversation's value under another's id. observable-hooks'
 * useSubscription subscribes, resubscribes when `source` changes and drops a replaced source's late values;
 * this adds only what useObservableState does not: the reset to `initial` and the first value as a transition.
 */
export function useObservable<T>(source: Observable<T>, initial: T): T {
  const [held, setHeld] = useState<{ source: Observable<T>; value: T }>({ source, value: initial });
  // The source whose value the component was last given, read when a value comes (not a render's value).
  const shown = useRef<Observable<T> | null>(null);
  useSubscription(source, {
    next: (value) => {
      // A value the component already shows (a shared query's replay) renders nothing again.
      const update = () => setHeld((prev) => (prev.source === source && Object.is(prev.value, value) ? prev : { source, value }));
      // A query's first value mounts what it feeds (the main screen in place of "Loading…", the chats in
      // place of their skeleton): the largest renders, several at once when a tab starts. As a transition
      // React renders it in slices with the page responsive between them, not in one long task. Later
      // values change a little in place, at the priority they always had.
      if (shown.current !== source) startTransition(update);
      else update();
      shown.current = source;
    },
    // A failed query leaves the screen as it was (its last value, or `initial`) rather than unmounting it.
    error: (error: unknown) => console.warn('engine query failed', error),
  });
  return held.source === source ? held.value : initial;
}

/**
 * An engine query in a component: `useQuery((e) => e.messages(id), [id], EMPTY)`. The query is made once
 * per `deps`, so a re-render does not re-subscribe across the worker port.
 */
export function useQuery<T>(make: (engine: TabEngine) => Observable<T>, deps: readonly unknown[], initial: T): T {
  const engine = useEngine();
  const source = useMemo(() => make(engine), [engine, ...deps]);
  return useObservable(source, initial);
}
