import { Observable } from 'rxjs';
import type { MessageSearchView } from '../contract/types';
import type { EngineClock } from '../clock';

/** A burst of index changes re-runs a watched query once, this long after the first of them. */
export const SEARCH_SETTLE_MS = 100;
/** A run that could not read the store (an aborted transaction, a store being closed) is tried again this long after. */
export const SEARCH_RERUN_MS = 2_000;

/**
 * `view()` at once, then again SEARCH_SETTLE_MS after a change of the index (a burst of them is one run, and
 * a stream of them one run per period: it never waits for a pause that may not come). A view is read from
 * the store, so it takes a while: a change during one runs it again after it, never two at once. A run
 * whose hits are as before emits nothing (scores left out of the comparison). A run that fails does not end
 * the query (the search box would wait for it for good): the last hits stay, and it runs again SEARCH_RERUN_MS
 * later.
 */
export function watchedQuery(view: () => Promise<MessageSearchView>, changes: Observable<void>, clock: EngineClock): Observable<MessageSearchView> {
  return new Observable<MessageSearchView>((subscriber) => {
    let last = '';
    let timer: unknown = null;
    let running = false;
    let again = false;
    const emit = async () => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          const next = await view();
          if (subscriber.closed) return;
          const key = JSON.stringify([next.complete, next.hits.map((h) => [h.kind, h.id, h.title, h.senderName, h.fromSelf, h.snippet])]);
          if (key !== last) {
            last = key;
            subscriber.next(next);
          }
        } while (again);
      } catch {
        if (!subscriber.closed) later(SEARCH_RERUN_MS);
      } finally {
        running = false;
      }
    };
    const later = (ms: number) => {
      timer ??= clock.setTimeout(() => {
        timer = null;
        void emit();
      }, ms);
    };
    void emit();
    const subscription = changes.subscribe(() => later(SEARCH_SETTLE_MS));
    return () => {
      subscription.unsubscribe();
      if (timer !== null) clock.clearTimeout(timer);
    };
  });
}
