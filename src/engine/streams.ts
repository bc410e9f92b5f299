import { Observable, type Subscription } from 'rxjs';

/*
 * RxJS's `of`, `defer` + `switchMap` and `combineLatest`, written out for the engine's start-up chunk: RxJS's
 * own bring the half of RxJS that turns promises, iterables and streams into Observables, 2 KiB gzipped the
 * worker would load before anyone signs in (issue 11; tests/e2e/code-splitting.test.ts checks it stays out).
 */

/**
 * `defer(load).pipe(switchMap(project))`: on each subscription calls `load`, then subscribes to what
 * `project` makes of its value. A failed load is the Observable's error.
 */
export function afterLoad<T, R>(load: () => Promise<T>, project: (value: T) => Observable<R>): Observable<R> {
  return new Observable<R>((subscriber) => {
    let inner: Subscription | null = null;
    let closed = false;
    let loading: Promise<T>;
    try {
      loading = load();
    } catch (error) {
      subscriber.error(error);
      return undefined;
    }
    loading.then(
      (value) => {
        if (closed) return;
        let source: Observable<R>;
        try {
          source = project(value);
        } catch (error) {
          subscriber.error(error);
          return;
        }
        inner = source.subscribe(subscriber);
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => {
      closed = true;
      inner?.unsubscribe();
    };
  });
}

/** `combineLatest([a, b])`: both latest values, once each has one; complete once both are. */
export function latestOfBoth<A, B>(a: Observable<A>, b: Observable<B>): Observable<[A, B]> {
  return new Observable<[A, B]>((subscriber) => {
    let valueA: A | undefined;
    let valueB: B | undefined;
    let hasA = false;
    let hasB = false;
    let ended = 0;
    const emit = () => {
      if (hasA && hasB) subscriber.next([valueA as A, valueB as B]);
    };
    // As combineLatest: a side that ends without a value ends it all, else it ends when both have.
    const ending = (had: () => boolean) => () => {
      if (!had() || ++ended === 2) subscriber.complete();
    };
    const fail = (error: unknown) => subscriber.error(error);
    const first = a.subscribe({
      next: (value) => {
        valueA = value;
        hasA = true;
        emit();
      },
      error: fail,
      complete: ending(() => hasA),
    });
    const second = b.subscribe({
      next: (value) => {
        valueB = value;
        hasB = true;
        emit();
      },
      error: fail,
      complete: ending(() => hasB),
    });
    return () => {
      first.unsubscribe();
      second.unsubscribe();
    };
  });
}
