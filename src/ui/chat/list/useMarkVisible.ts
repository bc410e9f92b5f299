import { useCallback, useEffect, useRef } from 'react';
import { useEngine } from '../../hooks/EngineContext';
import { VISIBLE_RATIO } from './scrollRules';

/**
 * Spec §4: a message of someone else that is at least half visible is read. Returns `observe(el, id)` for a
 * row's ref (its cleanup stops observing), and `start()`, which the list calls once it has opened where it
 * opens: rows drawn before that (at the top of the rows, before the scroll went to the first unread message or
 * the end) were never seen, so nothing is marked until then (docs/ui.md, "Opening at the first unread
 * message"). Seen while the tab is hidden counts once the tab shows again. A row taller than twice the viewport
 * counts when it fills half of it.
 */
export function useMarkVisible(conversationId: number) {
  const engine = useEngine();
  const ids = useRef(new Map<Element, number>());
  const visible = useRef(new Set<number>());
  const marked = useRef(new Set<number>());
  const observer = useRef<IntersectionObserver | null>(null);
  const started = useRef(false);

  const mark = useCallback(
    (messageId: number) => {
      if (!started.current || marked.current.has(messageId) || document.visibilityState !== 'visible') return;
      marked.current.add(messageId);
      engine.markVisible(conversationId, messageId);
    },
    [engine, conversationId],
  );

  const getObserver = useCallback(() => {
    observer.current ??= new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = ids.current.get(entry.target);
          if (id === undefined) continue;
          const rootHeight = entry.rootBounds?.height ?? Number.POSITIVE_INFINITY;
          const seen =
            entry.isIntersecting &&
            (entry.intersectionRatio >= VISIBLE_RATIO || entry.intersectionRect.height >= rootHeight * VISIBLE_RATIO);
          if (seen) {
            visible.current.add(id);
            mark(id);
          } else {
            visible.current.delete(id);
          }
        }
      },
      { threshold: [0.25, VISIBLE_RATIO, 0.75] },
    );
    return observer.current;
  }, [mark]);

  useEffect(() => {
    const onShow = () => {
      if (document.visibilityState === 'visible') for (const id of visible.current) mark(id);
    };
    document.addEventListener('visibilitychange', onShow);
    return () => document.removeEventListener('visibilitychange', onShow);
  }, [mark]);

  useEffect(
    () => () => {
      observer.current?.disconnect();
      observer.current = null;
    },
    [],
  );

  const observe = useCallback(
    (el: Element, messageId: number) => {
      const io = getObserver();
      ids.current.set(el, messageId);
      io.observe(el);
      return () => {
        io.unobserve(el);
        ids.current.delete(el);
        visible.current.delete(messageId);
      };
    },
    [getObserver],
  );

  /** The list opened: the rows observed so far are looked at again where they are now (observing anew reports each). */
  const start = useCallback(() => {
    if (started.current) return;
    started.current = true;
    const io = observer.current;
    if (!io) return;
    for (const el of ids.current.keys()) {
      io.unobserve(el);
      io.observe(el);
    }
  }, []);

  return { observe, start };
}
