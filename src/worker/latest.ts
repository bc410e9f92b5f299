import { Observable, type Subscriber } from 'rxjs';

/**
 * A value that changes, with its changes as an Observable: RxJS's BehaviorSubject, written out so that
 * of RxJS the tab's entry chunk, which every page loads, needs the Observable alone (issue 11).
 * A subscriber gets the current value at once, then each new one.
 */
export class Latest<T> {
  readonly changes: Observable<T>;
  private readonly subscribers = new Set<Subscriber<T>>();
  private waiters: { test: (value: T) => boolean; resolve: (value: T) => void }[] = [];

  constructor(private current: T) {
    this.changes = new Observable<T>((subscriber) => {
      this.subscribers.add(subscriber);
      subscriber.next(this.current);
      return () => this.subscribers.delete(subscriber);
    });
  }

  get value(): T {
    return this.current;
  }

  set(value: T): void {
    this.current = value;
    const ready = this.waiters.filter((waiter) => waiter.test(value));
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    // Those who subscribe or leave meanwhile are not told of this value (they have it, or no longer want it).
    for (const subscriber of [...this.subscribers]) subscriber.next(value);
    for (const waiter of ready) waiter.resolve(value);
  }

  /** The first value that passes `test`: the current one, else the next that does. */
  when<S extends T>(test: (value: T) => value is S): Promise<S> {
    if (test(this.current)) return Promise.resolve(this.current);
    return new Promise<S>((resolve) => {
      this.waiters.push({ test, resolve: resolve as (value: T) => void });
    });
  }
}
