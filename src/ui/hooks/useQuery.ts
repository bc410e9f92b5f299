import { startTransition, useEffect, useMemo, useState } from 'react';
import type { Observable } from 'rxjs';
import type { TabEngine } from '../../engine/api';
import { useEngine } from './EngineContext';

/**
 * The latest value of an observable, or `initial` until it emits. A new observable starts again from
 * `initial`, so a screen never shows one conversation's value under another's id.
 */
export function useObservable<T>(source: Observable<T>, initial: T): T {
  const [held, setHeld] = useState<{ source: Observable<T>; value: T }>({ source, value: initial });
  useEffect(() => {
    const subscription = source.subscribe({
      next: (value) => startTransition(() => setHeld({ source, value })),
      error: (error: unknown) => console.warn('engine query failed', error),
    });
    return () => subscription.unsubscribe();
  }, [source]);
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
