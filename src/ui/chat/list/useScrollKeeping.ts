import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { estimateRow } from './estimateRow';
import type { ChatRow } from './rows';
import { LOAD_OLDER_THRESHOLD_PX, NEAR_BOTTOM_PX, PINNED_PX, SCROLL_DEBOUNCE_MS } from './scrollRules';
import { PADDING, SPACE_ABOVE_PX, useRowAnchor } from './useRowAnchor';

/** The reader rests when no scroll came for this long. */
const REST_MS = 150;

/** The rows on screen (indexes into `rows`), and whether the viewport is above every row (in the room above). */
export interface VisibleRows {
  rows: readonly ChatRow[];
  first: number;
  last: number;
  aboveRows: boolean;
  /**
   * The list follows the latest messages (the reader is at the end of a window that holds the latest): what
   * arrives is on screen by the next frame, even when the scroll has not caught up with a burst yet.
   */
  following: boolean;
}

export interface ScrollKeepingOptions {
  rows: readonly ChatRow[];
  indexOf: (key: string) => number | undefined;
  loaded: boolean;
  hasOlder: boolean;
  /** The window was trimmed at its newer end: its last row is not the chat's latest. */
  hasNewer: boolean;
  /**
   * Where the list opens once rows are there: a row to centre and hold, a row to put at the top and hold unless
   * everything from it down fits on screen (`{ top }`, the unread divider: then the end), `'end'`, or `'wait'`
   * (the rows around it are still loading). Asked again when the rows or `openKey` change, until it answers.
   */
  openAt: () => number | { top: number } | 'end' | 'wait';
  openKey?: unknown;
  /** The reader's own row (a send): appended, it brings the list to the end wherever the reader was. */
  isOwn: (row: ChatRow) => boolean;
  /** Prefetch: the reader came within LOAD_OLDER_THRESHOLD_PX of the top of the rows. */
  loadOlder: () => void;
  /** "Jump to latest" from a window trimmed at its newer end. */
  loadLatest: () => Promise<unknown>;
  /** The rows on screen may have changed (a scroll, new rows, a jump). */
  onVisible: (visible: VisibleRows) => void;
  /** After the list has kept its place for new rows, before it looks at the top and reports what is visible. */
  afterRowsChange?: () => void;
  /** The list has opened where `openAt` said (what is on screen from now on was shown to the reader). */
  onOpened?: () => void;
}

/**
 * Keeps the message list's scroll position (spec §4, issues 11 and 20): opens at the end (or at a row it holds
 * centred), follows rows appended while the reader is at the bottom and counts the others' that arrive while
 * they are not, keeps the row being read still when pages are added or trimmed above or rows change height
 * (the room above, `spaceAbove`, takes the difference while older history remains, so the scroll position is
 * not written under a scrolling reader), asks for older pages near the top, and stays at the bottom when the
 * viewport changes size. The caller renders `virtualizer`'s items inside an element of height
 * `virtualizer.getTotalSize()`, in the element given `scrollRef` and `listeners`.
 */
export function useScrollKeeping(options: ScrollKeepingOptions) {
  const { rows, indexOf, loaded, hasOlder, hasNewer } = options;
  // Handlers and timers run after this render: they read the options of the latest one.
  const latest = useRef(options);
  latest.current = options;

  const scrollRef = useRef<HTMLDivElement>(null);
  // The room above the loaded rows (SPACE_ABOVE_PX): state for rendering; handlers read the rendered one.
  const [spaceAbove, setSpaceAbove] = useState(0);
  const initialDone = useRef(false);
  // The first rows with older history behind them open with the room above already there.
  if (!initialDone.current && loaded && hasOlder && spaceAbove === 0) setSpaceAbove(SPACE_ABOVE_PX);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimateRow(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 6,
    paddingStart: PADDING + spaceAbove,
    paddingEnd: PADDING,
  });
  // Height changes never move the scroll position by themselves: the list keeps its anchor row in place
  // instead (restoreAnchor), which also covers a row across the top edge that changes at its top (its
  // sender line or a day separator coming or going once older messages arrive above it).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => false;

  const { captureAnchor, restoreAnchor, centreOn: holdCentred, rest, letGo, renderedSpace } = useRowAnchor({
    virtualizer,
    scrollRef,
    rows,
    indexOf,
    hasOlder,
    spaceAbove,
    setSpaceAbove,
    opened: initialDone,
  });

  // Where the reader is, as of the last scroll or layout: kept in refs, read when the rows change.
  const pinned = useRef(true);
  const nearBottom = useRef(true);
  const previousRows = useRef<readonly ChatRow[] | null>(null);
  const previousHasNewer = useRef(false);
  const lastTotal = useRef(0);
  const jumping = useRef(false);
  const [showJump, setShowJump] = useState(false);
  const [unseen, setUnseen] = useState(0);
  const topTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const restTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  /** Tells the caller which rows are on screen (it tells the engine which messages). */
  const reportVisible = useCallback(() => {
    const el = scrollRef.current;
    const current = rowsRef.current;
    if (!el || current.length === 0) return;
    const measurements = virtualizer.measurementsCache;
    const first = virtualizer.getVirtualItemForOffset(el.scrollTop)?.index ?? 0;
    const last = virtualizer.getVirtualItemForOffset(el.scrollTop + el.clientHeight - 1)?.index ?? current.length - 1;
    latest.current.onVisible({
      rows: current,
      first: Math.max(0, first),
      last: Math.min(last, measurements.length - 1),
      aboveRows: el.scrollTop < (measurements[0]?.start ?? 0),
      following: nearBottom.current && !latest.current.hasNewer,
    });
  }, [virtualizer]);

  /** How far the reader is below the top of the loaded rows. */
  const belowTop = useCallback(() => (scrollRef.current?.scrollTop ?? 0) - renderedSpace(), [renderedSpace]);

  /** Spec §4: older messages load when the list is within 200 px of the top, debounced 100 ms. */
  const checkTop = useCallback(() => {
    if (topTimer.current !== null) clearTimeout(topTimer.current);
    topTimer.current = setTimeout(() => {
      topTimer.current = null;
      if (scrollRef.current && belowTop() < LOAD_OLDER_THRESHOLD_PX) latest.current.loadOlder();
    }, SCROLL_DEBOUNCE_MS);
  }, [belowTop]);

  useEffect(
    () => () => {
      if (topTimer.current !== null) clearTimeout(topTimer.current);
      if (restTimer.current !== null) clearTimeout(restTimer.current);
    },
    [],
  );

  const readPosition = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    // The end of a window trimmed at its newer end is not the latest message.
    const atLatest = !latest.current.hasNewer || jumping.current;
    pinned.current = atLatest && distance <= PINNED_PX;
    nearBottom.current = atLatest && distance <= NEAR_BOTTOM_PX;
    setShowJump(!nearBottom.current);
    if (nearBottom.current) setUnseen(0);
  }, []);

  const onScroll = useCallback(() => {
    readPosition();
    captureAnchor();
    reportVisible();
    if (restTimer.current !== null) clearTimeout(restTimer.current);
    restTimer.current = setTimeout(rest, REST_MS);
    if (initialDone.current && scrollRef.current && belowTop() < LOAD_OLDER_THRESHOLD_PX) checkTop();
  }, [readPosition, captureAnchor, reportVisible, rest, belowTop, checkTop]);

  const scrollToEnd = useCallback(() => {
    letGo();
    pinned.current = true;
    nearBottom.current = true;
    setShowJump(false);
    setUnseen(0);
    virtualizer.scrollToEnd();
  }, [virtualizer, letGo]);

  /** "Jump to latest": the end of the list, after loading the latest page when the window was trimmed there. */
  const jumpToLatest = useCallback(() => {
    if (latest.current.hasNewer && !jumping.current) {
      jumping.current = true;
      latest.current.loadLatest().catch(() => {
        jumping.current = false;
      });
    }
    scrollToEnd();
  }, [scrollToEnd]);

  /** Centres the row at `index` (or puts it at the top) and holds it there: the reader is not at the bottom any more. */
  function centreOn(index: number, align: 'center' | 'start' = 'center') {
    pinned.current = false;
    holdCentred(index, align);
  }

  /** Whether the rows from `index` to the end fit on screen (as far as they are measured yet). */
  function fitsFrom(index: number): boolean {
    const el = scrollRef.current;
    virtualizer.getVirtualItems();
    const item = virtualizer.measurementsCache[index];
    return !el || !item || virtualizer.getTotalSize() - PADDING - item.start <= el.clientHeight;
  }

  /**
   * The virtualiser keeps the measured height of every row it ever drew; rows the engine trimmed away are
   * forgotten once they outnumber the rows there are, so memory stays bounded however far the reader goes
   * (a row that comes back is measured again, and the room above takes the difference).
   */
  function forgetGoneSizes() {
    const sizes = virtualizer.itemSizeCache;
    if (sizes.size <= rows.length * 2 + 100) return;
    for (const key of [...sizes.keys()]) if (indexOf(String(key)) === undefined) sizes.delete(key);
  }

  // The rows changed: open at the end, follow new messages near the bottom, else keep the anchor in place.
  useLayoutEffect(() => {
    const before = previousRows.current;
    const hadNewer = previousHasNewer.current;
    previousRows.current = rows;
    previousHasNewer.current = hasNewer;
    if (!loaded || rows.length === 0) return;
    if (!initialDone.current) {
      const at = options.openAt();
      if (at === 'wait') return;
      initialDone.current = true;
      if (at === 'end' || (typeof at === 'object' && fitsFrom(at.top))) {
        scrollToEnd();
        checkTop();
        reportVisible();
        options.onOpened?.();
        return;
      }
      nearBottom.current = false;
      if (typeof at === 'object') centreOn(at.top, 'start');
      else centreOn(at);
      readPosition();
      checkTop();
      reportVisible();
      options.onOpened?.();
      return;
    }
    if (!before || before === rows) return;
    if (jumping.current && !hasNewer) {
      jumping.current = false;
      scrollToEnd();
      reportVisible();
      return;
    }
    const lastBefore = before[before.length - 1]?.key;
    const last = rows[rows.length - 1];
    const appended =
      last !== undefined && last.key !== lastBefore && !before.some((r) => r.key === last.key) && (!hadNewer || last.kind === 'outbox');
    const ownAppended = appended && options.isOwn(last);
    if (ownAppended && hasNewer) {
      // The reader's own send goes to the end of the chat, past what was trimmed: the latest page comes first.
      jumpToLatest();
    } else if (appended && (pinned.current || nearBottom.current || ownAppended)) {
      scrollToEnd();
    } else {
      // Pages above, trims, edits: the anchor stays (even at the bottom, so a reader who starts scrolling up
      // at once is not pulled back down by a scroll to the end).
      if (!restoreAnchor() && pinned.current) scrollToEnd();
      if (appended && !hasNewer) {
        const known = new Set(before.map((r) => r.key));
        const lastBeforeIndex = lastBefore === undefined ? -1 : (indexOf(lastBefore) ?? -1);
        let fresh = 0;
        for (let i = lastBeforeIndex + 1; i < rows.length; i++) {
          const row = rows[i];
          if (row?.kind === 'message' && !known.has(row.key) && !options.isOwn(row)) fresh += 1;
        }
        if (fresh > 0) setUnseen((n) => n + fresh);
      }
    }
    options.afterRowsChange?.();
    checkTop();
    reportVisible();
    forgetGoneSizes();
    // Runs when the rows change (or the opening may answer otherwise); everything else it reads is a ref or
    // this render's value.
  }, [rows, loaded, options.openKey]);

  // Heights settled (pictures loaded, rows measured): the anchor stays; a list pinned to the bottom stays there.
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (total !== lastTotal.current) {
      lastTotal.current = total;
      if (!initialDone.current) return;
      const anchored = restoreAnchor();
      const el = scrollRef.current;
      const atEnd = el !== null && el.scrollHeight - el.scrollTop - el.clientHeight <= 1;
      if (pinned.current && (!anchored || !atEnd)) virtualizer.scrollToEnd();
    }
    // restoreAnchor reads this render's rows; the effect runs when the height changes.
  }, [total, virtualizer]);

  // The viewport itself got shorter or taller (the composer grew, a file chip appeared, the window was
  // resized): a list pinned to the bottom stays there, as when its rows change height.
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    let height = el.clientHeight;
    const observer = new ResizeObserver(() => {
      if (el.clientHeight === height) return;
      height = el.clientHeight;
      if (!initialDone.current || !pinned.current) return;
      // At once (no frame with the last rows hidden), then through the virtualizer so it agrees.
      el.scrollTop = el.scrollHeight;
      virtualizer.scrollToEnd();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [virtualizer]);

  const addUnseen = useCallback((n: number) => setUnseen((count) => count + n), []);
  const isNearBottom = useCallback(() => nearBottom.current, []);

  return {
    scrollRef,
    virtualizer,
    spaceAbove,
    showJump,
    /** Messages of other people that arrived while the reader was away from the bottom. */
    unseen,
    addUnseen,
    isNearBottom,
    listeners: { onScroll, onWheel: letGo, onPointerDown: letGo, onTouchStart: letGo, onKeyDown: letGo },
    centreOn,
    reportVisible,
    jumpToLatest,
  };
}
