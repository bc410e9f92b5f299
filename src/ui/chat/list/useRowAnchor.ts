import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useCallback, useLayoutEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import type { ChatRow } from './rows';

/** The list's own padding above the first and below the last row. */
export const PADDING = 8;
/**
 * Room kept above the loaded rows while older history remains (issue 11): older pages go into it, so the
 * rows the reader sees never move and the scroll position is never written while they scroll (a write would
 * stop the browser's wheel scrolling). It is made roomy again while the reader rests.
 */
export const SPACE_ABOVE_PX = 100_000;
const SPACE_LOW_PX = 30_000;

export interface RowAnchorInput {
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  scrollRef: RefObject<HTMLDivElement | null>;
  rows: readonly ChatRow[];
  indexOf: (key: string) => number | undefined;
  hasOlder: boolean;
  /** The room above as this render draws it, and the way to change it (owned by the caller: the virtualiser's padding). */
  spaceAbove: number;
  setSpaceAbove: (space: number) => void;
  /** Whether the list has opened (before that there is no place to keep). */
  opened: RefObject<boolean>;
}

/**
 * Keeps the row being read where it is on screen (issues 11 and 20): an anchor row taken at each scroll, a row
 * held centred (a search hit, a quote) until the reader scrolls by hand, and the room above the loaded rows
 * that takes up rows added, trimmed or measured above, so the scroll position stays while older history
 * remains. Runs in the render of the list (the drift is taken up in the very render that causes it).
 */
export function useRowAnchor({ virtualizer, scrollRef, rows, indexOf, hasOlder, spaceAbove, setSpaceAbove, opened }: RowAnchorInput) {
  /** The anchor row and where it starts in the list (not on screen: a scroll since does not move it back). */
  const anchor = useRef<{ key: string; start: number } | null>(null);
  const indexOfRef = useRef(indexOf);
  indexOfRef.current = indexOf;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const hasOlderRef = useRef(hasOlder);
  hasOlderRef.current = hasOlder;
  /**
   * A row the list holds still on screen whatever loads around it: a message opened from a search or a
   * reply's quote, until the reader scrolls by hand. (The virtualiser's own scrollToIndex keeps aiming at an
   * index for a while, and prefetched pages above change which row an index is.)
   */
  const heldKey = useRef<string | null>(null);
  /** Where the scroll goes in the commit that renders the room above just changed (changeSpace). */
  const pendingScroll = useRef<number | null>(null);

  /**
   * How far the anchor row moved in the list since it was taken (0 without one): rows above it added, trimmed
   * or measured. A change of the room above made on purpose (changeSpace) moves the anchor with it, so it is
   * never counted here.
   */
  const anchorDrift = useCallback((): number => {
    const saved = anchor.current;
    const index = saved ? indexOfRef.current(saved.key) : undefined;
    if (!saved || index === undefined) return 0;
    virtualizer.getVirtualItems();
    const item = virtualizer.measurementsCache[index];
    const delta = item ? item.start - saved.start : 0;
    return Math.abs(delta) < 0.5 ? 0 : delta;
  }, [virtualizer]);
  // Pages added or trimmed above, rows above measured: the room above takes the difference in this very
  // render, so no frame shows the rows moved and the scroll position is never clamped in between (issue 11).
  // Once the oldest message is here, or the room ran out, the scroll follows instead (restoreAnchor).
  const drift = anchorDrift();
  if (opened.current && drift !== 0 && hasOlder && Math.round(spaceAbove - drift) >= 0) {
    setSpaceAbove(Math.round(spaceAbove - drift));
  }

  /** The room above as the virtualiser last measured the rows with it. */
  const renderedSpace = useCallback(() => (virtualizer.options.paddingStart ?? PADDING) - PADDING, [virtualizer]);

  /**
   * Changes the room above on purpose (made roomy again, run out, gone with the oldest message). The anchor row
   * moves in the list by the room's change and by any drift of it not taken up yet: the anchor moves with it,
   * so the render that brings the room does not take the change for rows moved above and give it back
   * (issue 20: it did, and the scroll then went where the room was not, clamped at the end of the rows). The
   * scroll follows the row by as much, plus `extra`, in the commit that renders the room (the layout effect
   * below), so the row stays where it is on screen. Asked again before that render (the rows and the height
   * changed in one commit), the second change adds to the first.
   */
  const changeSpace = useCallback(
    (space: number, extra = 0) => {
      const el = scrollRef.current;
      const next = Math.max(0, space);
      const moved = anchorDrift() + next - renderedSpace();
      const saved = anchor.current;
      if (saved) anchor.current = { key: saved.key, start: saved.start + moved };
      if (el) {
        const shift = moved + extra;
        pendingScroll.current = (pendingScroll.current ?? el.scrollTop) + shift;
        // The render that brings the new room draws the rows of where the scroll is going, not of where it
        // was: otherwise that frame would show the empty room until the scroll event reached the virtualiser.
        if (shift !== 0) virtualizer.scrollOffset = pendingScroll.current;
      }
      setSpaceAbove(next);
    },
    [virtualizer, scrollRef, anchorDrift, renderedSpace, setSpaceAbove],
  );

  /**
   * The anchor: the first message row whose top is inside the viewport, and where it starts. Rows above it may
   * change height (measured at last, a sender line or a separator coming or going) without moving it; a day
   * separator is skipped, as it may go when older messages arrive, and so is the unread divider (it goes when
   * the reader sends).
   */
  const captureAnchor = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const held = heldKey.current;
    if (held !== null) {
      const heldIndex = indexOfRef.current(held);
      virtualizer.getVirtualItems();
      const heldItem = heldIndex === undefined ? undefined : virtualizer.measurementsCache[heldIndex];
      // Held while it is loaded and on screen: a scroll that took it away (the scroll bar, find in page, a
      // screen reader) or a trim lets it go.
      if (heldItem && heldItem.end > el.scrollTop && heldItem.start < el.scrollTop + el.clientHeight) {
        anchor.current = { key: held, start: heldItem.start };
        return;
      }
      heldKey.current = null;
    }
    const top = el.scrollTop;
    const atTop = virtualizer.getVirtualItemForOffset(top);
    const measurements = virtualizer.measurementsCache;
    const current = rowsRef.current;
    let index = atTop ? atTop.index : 0;
    while (index < measurements.length && ((measurements[index]?.start ?? 0) < top || current[index]?.kind === 'day' || current[index]?.kind === 'unread')) {
      index += 1;
    }
    const item = measurements[index] ?? atTop;
    anchor.current = item ? { key: String(item.key), start: item.start } : null;
  }, [virtualizer, scrollRef]);

  /**
   * The reader rests: the room above is made roomy again (or goes, once the oldest message is here), and a
   * reader left in the empty room above the rows (a dragged scroll bar) is brought to the oldest loaded row.
   * Moving the scroll position now interrupts no scrolling. The room is rendered and the scroll moved in one
   * synchronous commit (flushSync): a commit in between (a scroll event's) must not draw the old room with the
   * scroll meant for the new one.
   */
  const rest = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !opened.current) return;
    const space = renderedSpace();
    const older = hasOlderRef.current;
    const firstStart = virtualizer.measurementsCache[0]?.start;
    const shift = older && firstStart !== undefined && el.scrollTop + el.clientHeight < firstStart ? firstStart - el.scrollTop : 0;
    const next = older ? (space < SPACE_LOW_PX ? SPACE_ABOVE_PX : space) : 0;
    if (next !== space) flushSync(() => changeSpace(next, shift));
    else if (shift !== 0) {
      el.scrollTop += shift;
      captureAnchor();
    }
  }, [scrollRef, opened, renderedSpace, changeSpace, virtualizer, captureAnchor]);

  /** The reader moves the list by hand, or it goes to the end: no row is held any more. */
  const letGo = useCallback(() => {
    heldKey.current = null;
  }, []);

  /**
   * Puts the anchor row back where it was on screen. While older history remains, the room above absorbs the
   * change and the scroll position stays (pages added or trimmed above, rows above measured); only when that
   * room runs out, or at the very top, does the scroll position follow. Returns whether there was an anchor.
   */
  function restoreAnchor(): boolean {
    const saved = anchor.current;
    const el = scrollRef.current;
    if (!saved || !el || indexOf(saved.key) === undefined) return false;
    const delta = anchorDrift();
    if (delta === 0) return true;
    const space = renderedSpace();
    const wanted = Math.round(space - delta);
    const next = !hasOlder ? 0 : wanted >= 0 ? wanted : SPACE_ABOVE_PX;
    // How far the row moves in the list once the room above is `next`: the scroll follows it by as much.
    const shift = delta + next - space;
    if (next === space) {
      el.scrollTop += shift;
      captureAnchor();
    } else {
      // The scroll follows by the same `shift` once the room is rendered (changeSpace works it out alike).
      changeSpace(next);
    }
    return true;
  }

  /** Centres the row at `index` (or puts it at the top: `'start'`) by writing the scroll position, and holds it there. */
  function centreOn(index: number, align: 'center' | 'start' = 'center') {
    const el = scrollRef.current;
    const row = rows[index];
    const offset = virtualizer.getOffsetForIndex(index, align)?.[0];
    if (!el || !row || offset === undefined) return;
    virtualizer.cancelScroll();
    heldKey.current = row.key;
    el.scrollTop = offset;
    virtualizer.scrollOffset = el.scrollTop;
    captureAnchor();
  }

  // The room above changed and is rendered: move the scroll by what the change asked for, before paint.
  useLayoutEffect(() => {
    const target = pendingScroll.current;
    const el = scrollRef.current;
    if (target === null || !el) return;
    pendingScroll.current = null;
    el.scrollTop = target;
    captureAnchor();
  });

  return { captureAnchor, restoreAnchor, centreOn, rest, letGo, renderedSpace };
}
