import { useCallback, useEffect, useMemo } from 'react';
import type { ChatRow } from './rows';

type SlotRef = (el: HTMLDivElement | null) => (() => void) | undefined;

/**
 * One ref callback per row key, kept across renders. A new callback each render would make React detach
 * and attach every visible row on every render: unobserved and observed again for read marks, and measured
 * again (a layout read per row). With a stable one a row is measured and observed once when it mounts; the
 * virtualiser's ResizeObserver follows its later size changes.
 */
export function useSlotRefs(
  rows: readonly ChatRow[],
  measure: (el: HTMLDivElement | null) => void,
  observe: (el: Element, messageId: number) => () => void,
): (key: string, watchId: number | null) => SlotRef {
  // New measure or observe functions (another list) start a new set of callbacks.
  const cache = useMemo(() => {
    void measure;
    void observe;
    return new Map<string, { watchId: number | null; ref: SlotRef }>();
  }, [measure, observe]);

  // Rows that are gone for good (a deleted message, a sent outbox entry) drop their callback.
  useEffect(() => {
    const live = new Set(rows.map((r) => r.key));
    for (const key of cache.keys()) if (!live.has(key)) cache.delete(key);
  }, [rows, cache]);

  return useCallback(
    (key: string, watchId: number | null) => {
      const cached = cache.get(key);
      if (cached && cached.watchId === watchId) return cached.ref;
      const ref: SlotRef = (el) => {
        if (!el) return undefined;
        measure(el);
        const stop = watchId !== null ? observe(el, watchId) : undefined;
        return () => {
          stop?.();
          // Lets the virtualiser forget rows that left the DOM.
          measure(null);
        };
      };
      cache.set(key, { watchId, ref });
      return ref;
    },
    [cache, measure, observe],
  );
}
