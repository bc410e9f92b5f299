import { Observable } from 'rxjs';
import type { MessageSearchView } from '../contract/types';
import type { EngineClock } from '../clock';

/** A burst of index changes re-runs a watched query once, this long after the first of them. */
export const SEARCH_SETTLE_MS = 100;

/**
 * `view()` at once, then again SEARCH_SETTLE_MS after a change of the index (a burst of them is one run, and
 * a stream of them one run per period: it never waits for a pause that may not come). A run whose hits are
 * as before emits nothing: scores move with every document added, as word frequencies change, so they are
 * left out of the comparison.
 */
export function watchedQuery(view: () => MessageSearchView, changes: Observable<void>, clock: EngineClock): Observable<MessageSearchView> {
  return new Observable<MessageSearchView>((subscriber) => {
    let last = '';
    let timer: unknown = null;
    const emit = () => {
      const next = view();
      const key = JSON.stringify([next.complete, next.hits.map((h) => [h.kind, h.id, h.title, h.senderName, h.fromSelf, h.snippet])]);
      if (key === last) return;
      last = key;
      subscriber.next(next);
    };
    emit();
    const subscription = changes.subscribe(() => {
      timer ??= clock.setTimeout(() => {
        timer = null;
        emit();
      }, SEARCH_SETTLE_MS);
    });
    return () => {
      subscription.unsubscribe();
      if (timer !== null) clock.clearTimeout(timer);
    };
  });
}
