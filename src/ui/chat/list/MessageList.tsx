import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { flushSync } from 'react-dom';
import type { MessageViewport, MessageWindowView, OutboxEntry } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { today as todayOf } from '../../common/time';
import { useEngine } from '../../hooks/EngineContext';
import { useNow } from '../../hooks/useNow';
import { useQuery } from '../../hooks/useQuery';
import { useChatRow } from '../ChatContext';
import { isEventMessage } from '../message/eventText';
import { memberUserId } from '../message/members';
import { MessageRow } from '../message/MessageRow';
import { dayLabel } from '../message/messageTime';
import { OutboxRow } from '../message/OutboxRow';
import { receiptLevels, receiptStatus, watermarksOf } from '../message/receiptStatus';
import { useReceiptMarks } from '../message/useReceiptMarks';
import { JumpToLatest } from './JumpToLatest';
import { buildMessageRows, type ChatRow, findLoaded, type MessageRows, rowIndex, withOutbox } from './rows';
import { LOAD_OLDER_THRESHOLD_PX, NEAR_BOTTOM_PX, PINNED_PX, SCROLL_DEBOUNCE_MS } from './scrollRules';
import { useMarkVisible } from './useMarkVisible';
import { useSlotRefs } from './useSlotRefs';
import { RowBoundary } from '../../common/RowBoundary';

const EMPTY_VIEW: MessageWindowView = { messages: [], hasOlder: false, hasNewer: false, loaded: false };
const NO_OUTBOX: readonly OutboxEntry[] = [];
/** At most this many older pages are fetched to reach a quoted message that is not loaded yet. */
const MAX_PAGES_TO_QUOTE = 50;
/** The list's own padding above the first and below the last row. */
const PADDING = 8;
/**
 * Room kept above the loaded rows while older history remains (issue 11): older pages go into it, so the
 * rows the reader sees never move and the scroll position is never written while they scroll (a write would
 * stop the browser's wheel scrolling). It is made roomy again while the reader rests.
 */
const SPACE_ABOVE_PX = 100_000;
const SPACE_LOW_PX = 30_000;
/** The reader rests when no scroll came for this long. */
const REST_MS = 150;
/** How long a message opened from a search stays highlighted (issue 13). */
export const FOUND_MS = 2_000;

/** The message a chat opens at (a search hit, issue 13), and whether the engine has finished loading around it. */
export interface OpenTarget {
  messageId: number;
  settled: boolean;
}

function estimateRow(row: ChatRow | undefined): number {
  if (row?.kind === 'day') return 40;
  if (row?.kind === 'outbox') return row.entry.attachment ? 220 : 64;
  const attachment = row?.message.attachment;
  return attachment && attachment.type !== 'event' ? 220 : 64;
}

/** A row's message, for the rows that hold one. */
const rowMessage = (row: ChatRow | undefined): Message | null => (row?.kind === 'message' ? row.message : null);

/**
 * The virtualised, bottom-anchored message list (spec §4): opens at the latest message, loads older pages
 * near the top without moving what the reader looks at, follows new messages only near the bottom and
 * otherwise offers "Jump to latest". It tells the engine which messages are on screen (`setViewport`), and
 * the engine keeps pages loaded ahead of them and trims what is far away (issue 11). Given a `target`, it
 * opens at that message instead (centred, highlighted for FOUND_MS) once the engine has loaded around it, or
 * at the nearest message after it when it is gone (issue 13); a remount opens it again.
 */
export function MessageList({
  conversationId,
  latest,
  failed = false,
  target = null,
}: {
  conversationId: number;
  /** The chat's latest message as the chats list knows it (a prop: the chat's UI context changes more often). */
  latest: Message | null;
  failed?: boolean;
  target?: OpenTarget | null;
}) {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const { conversation, selfId, registerScroller } = useChatRow();
  const view = useQuery((e) => e.messages(conversationId), [conversationId], EMPTY_VIEW);
  const outbox = useQuery((e) => e.outbox(), [], NO_OUTBOX);
  const marks = useReceiptMarks(conversationId);
  const now = useNow();
  const dayStart = todayOf(now).getTime();
  const today = useMemo(() => new Date(dayStart), [dayStart]);

  const pending = useMemo(
    // Comments wait in the outbox too; they belong to their post's thread, not to the chat.
    () => outbox.filter((e) => e.conversationId === conversationId && e.userId === selfId && e.comment === null),
    [outbox, conversationId, selfId],
  );
  // A new message extends the last build's rows instead of building every row again.
  const lastRows = useRef<MessageRows | undefined>(undefined);
  const messageRows = useMemo(
    () => buildMessageRows(view.messages, view.hasOlder, lastRows.current),
    [view.messages, view.hasOlder],
  );
  lastRows.current = messageRows;
  const rows = useMemo(() => withOutbox(messageRows, pending), [messageRows, pending]);
  const others = useMemo(
    () => conversation.users.map((u) => memberUserId(u.user)).filter((id) => id !== selfId),
    [conversation.users, selfId],
  );
  // Worked out once per change of the receipts or the members, not per row (a row compares two numbers).
  const levels = useMemo(
    () => receiptLevels(watermarksOf(marks, (id) => findLoaded(view.messages, id)?.user_id === selfId), others),
    [marks, view.messages, selfId, others],
  );

  const scrollRef = useRef<HTMLDivElement>(null);
  // The room above the loaded rows (SPACE_ABOVE_PX): state for rendering, a ref for the handlers.
  const [spaceAbove, setSpaceAbove] = useState(0);
  const initialDone = useRef(false);
  // The first rows with older history behind them open with the room above already there.
  if (!initialDone.current && view.loaded && view.hasOlder && spaceAbove === 0) setSpaceAbove(SPACE_ABOVE_PX);
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

  // Where the reader is, as of the last scroll or layout: kept in refs, read when the rows change.
  const pinned = useRef(true);
  /** The anchor row and where it starts in the list (not on screen: a scroll since does not move it back). */
  const anchor = useRef<{ key: string; start: number } | null>(null);
  const indexOf = (key: string) => rowIndex(messageRows, rows, key);
  const indexOfRef = useRef(indexOf);
  indexOfRef.current = indexOf;
  /**
   * A row the list holds still on screen whatever loads around it: a message opened from a search or a
   * reply's quote, until the reader scrolls by hand. (The virtualiser's own scrollToIndex keeps aiming at an
   * index for a while, and prefetched pages above change which row an index is.)
   */
  const heldKey = useRef<string | null>(null);
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
  if (initialDone.current && drift !== 0 && view.hasOlder && Math.round(spaceAbove - drift) >= 0) {
    setSpaceAbove(Math.round(spaceAbove - drift));
  }

  const nearBottom = useRef(true);
  const previousRows = useRef<readonly ChatRow[] | null>(null);
  const previousHasNewer = useRef(false);
  const lastTotal = useRef(0);
  /** Where the scroll goes in the commit that renders the room above just changed (changeSpace). */
  const pendingScroll = useRef<number | null>(null);
  const jumping = useRef(false);
  const [showJump, setShowJump] = useState(false);
  const [unseen, setUnseen] = useState(0);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);
  const [highlight, setHighlight] = useState<number | null>(null);
  const [found, setFound] = useState<number | null>(null);
  const targetRef = useRef(target);
  targetRef.current = target;
  const loading = useRef(false);
  const quoteTarget = useRef<{ id: number; pages: number } | null>(null);
  const topTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const restTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const viewRef = useRef(view);
  viewRef.current = view;
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

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
    [virtualizer, anchorDrift, renderedSpace],
  );

  /**
   * The anchor: the first message row whose top is inside the viewport, and where it starts. Rows above it may
   * change height (measured at last, a sender line or a separator coming or going) without moving it; a day
   * separator is skipped, as it may go when older messages arrive.
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
    while (index < measurements.length && ((measurements[index]?.start ?? 0) < top || current[index]?.kind === 'day')) {
      index += 1;
    }
    const item = measurements[index] ?? atTop;
    anchor.current = item ? { key: String(item.key), start: item.start } : null;
  }, [virtualizer]);

  /** Tells the engine which messages are on screen (the whole loaded top while a quote is being fetched). */
  const lastViewport = useRef<string>('');
  const reportViewport = useCallback(() => {
    const el = scrollRef.current;
    const current = rowsRef.current;
    if (!el || current.length === 0) return;
    const measurements = virtualizer.measurementsCache;
    const first = virtualizer.getVirtualItemForOffset(el.scrollTop)?.index ?? 0;
    const last = virtualizer.getVirtualItemForOffset(el.scrollTop + el.clientHeight - 1)?.index ?? current.length - 1;
    let oldest: Message | null = null;
    let newest: Message | null = null;
    for (let i = Math.max(0, first); i <= Math.min(last, measurements.length - 1); i++) {
      const message = rowMessage(current[i]);
      if (!message) continue;
      oldest ??= message;
      newest = message;
    }
    const messages = viewRef.current.messages;
    // Above every loaded row (the room above) or below them: the nearest loaded message.
    if (!oldest || !newest) {
      const edge = el.scrollTop < (measurements[0]?.start ?? 0) ? messages[0] : messages[messages.length - 1];
      if (!edge) return;
      oldest = newest = edge;
    }
    if (quoteTarget.current && messages[0]) oldest = messages[0];
    const viewport: MessageViewport = { oldestId: oldest.id, newestId: newest.id };
    const key = `${viewport.oldestId}:${viewport.newestId}`;
    if (key === lastViewport.current) return;
    lastViewport.current = key;
    engine.setViewport(engine.tabId, conversationId, viewport);
  }, [virtualizer, engine, conversationId]);
  useEffect(
    () => () => {
      lastViewport.current = '';
      engine.setViewport(engine.tabId, conversationId, null);
    },
    [engine, conversationId],
  );

  const loadOlder = useCallback(() => {
    if (loading.current || !viewRef.current.hasOlder || !viewRef.current.loaded) return;
    loading.current = true;
    setLoadingOlder(true);
    setOlderError(null);
    engine
      .loadOlderMessages(conversationId)
      .catch((error: unknown) => {
        quoteTarget.current = null;
        setOlderError(error ?? new Error());
      })
      .finally(() => {
        loading.current = false;
        setLoadingOlder(false);
      });
  }, [engine, conversationId]);

  /** How far the reader is below the top of the loaded rows. */
  const belowTop = useCallback(() => (scrollRef.current?.scrollTop ?? 0) - renderedSpace(), [renderedSpace]);

  /** Spec §4: older messages load when the list is within 200 px of the top, debounced 100 ms. */
  const checkTop = useCallback(() => {
    if (topTimer.current !== null) clearTimeout(topTimer.current);
    topTimer.current = setTimeout(() => {
      topTimer.current = null;
      if (scrollRef.current && belowTop() < LOAD_OLDER_THRESHOLD_PX) loadOlder();
    }, SCROLL_DEBOUNCE_MS);
  }, [loadOlder, belowTop]);

  /**
   * The reader rests: the room above is made roomy again (or goes, once the oldest message is here), and a
   * reader left in the empty room above the rows (a dragged scroll bar) is brought to the oldest loaded row.
   * Moving the scroll position now interrupts no scrolling. The room is rendered and the scroll moved in one
   * synchronous commit (flushSync): a commit in between (a scroll event's) must not draw the old room with the
   * scroll meant for the new one.
   */
  const rest = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !initialDone.current) return;
    const space = renderedSpace();
    const hasOlder = viewRef.current.hasOlder;
    const firstStart = virtualizer.measurementsCache[0]?.start;
    const shift = hasOlder && firstStart !== undefined && el.scrollTop + el.clientHeight < firstStart ? firstStart - el.scrollTop : 0;
    const next = hasOlder ? (space < SPACE_LOW_PX ? SPACE_ABOVE_PX : space) : 0;
    if (next !== space) flushSync(() => changeSpace(next, shift));
    else if (shift !== 0) {
      el.scrollTop += shift;
      captureAnchor();
    }
  }, [renderedSpace, changeSpace, virtualizer, captureAnchor]);

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
    const atLatest = !viewRef.current.hasNewer || jumping.current;
    pinned.current = atLatest && distance <= PINNED_PX;
    nearBottom.current = atLatest && distance <= NEAR_BOTTOM_PX;
    setShowJump(!nearBottom.current);
    if (nearBottom.current) setUnseen(0);
  }, []);

  const onScroll = useCallback(() => {
    readPosition();
    captureAnchor();
    reportViewport();
    if (restTimer.current !== null) clearTimeout(restTimer.current);
    restTimer.current = setTimeout(rest, REST_MS);
    if (initialDone.current && scrollRef.current && belowTop() < LOAD_OLDER_THRESHOLD_PX) checkTop();
  }, [readPosition, captureAnchor, reportViewport, rest, belowTop, checkTop]);

  /** The reader moves the list by hand: no row is held any more. */
  const letGo = useCallback(() => {
    heldKey.current = null;
  }, []);

  const scrollToEnd = useCallback(() => {
    heldKey.current = null;
    pinned.current = true;
    nearBottom.current = true;
    setShowJump(false);
    setUnseen(0);
    virtualizer.scrollToEnd();
  }, [virtualizer]);

  /** "Jump to latest": the end of the list, after loading the latest page when the window was trimmed there. */
  const jumpToLatest = useCallback(() => {
    if (viewRef.current.hasNewer && !jumping.current) {
      jumping.current = true;
      engine.loadLatestMessages(conversationId).catch(() => {
        jumping.current = false;
      });
    }
    scrollToEnd();
  }, [engine, conversationId, scrollToEnd]);

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
    const next = !view.hasOlder ? 0 : wanted >= 0 ? wanted : SPACE_ABOVE_PX;
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

  // The room above changed and is rendered: move the scroll by what the change asked for, before paint.
  useLayoutEffect(() => {
    const target = pendingScroll.current;
    const el = scrollRef.current;
    if (target === null || !el) return;
    pendingScroll.current = null;
    el.scrollTop = target;
    captureAnchor();
  });

  // The rows changed: open at the end, follow new messages near the bottom, else keep the anchor in place.
  useLayoutEffect(() => {
    const before = previousRows.current;
    const hadNewer = previousHasNewer.current;
    previousRows.current = rows;
    previousHasNewer.current = view.hasNewer === true;
    if (!view.loaded || rows.length === 0) return;
    if (!initialDone.current && targetRef.current) {
      // Opened at a message: wait for the page around it, then centre it (or the nearest one after it).
      const goal = targetRef.current;
      const exact = indexOf(`m-${goal.messageId}`);
      const index = exact ?? (goal.settled ? nearestIndex(goal.messageId) : undefined);
      if (index === undefined) return;
      initialDone.current = true;
      pinned.current = false;
      nearBottom.current = false;
      centreOn(index);
      if (exact !== undefined) setFound(goal.messageId);
      readPosition();
      checkTop();
      reportViewport();
      return;
    }
    if (!initialDone.current) {
      initialDone.current = true;
      scrollToEnd();
      checkTop();
      reportViewport();
      return;
    }
    if (!before || before === rows) return;
    if (jumping.current && !view.hasNewer) {
      jumping.current = false;
      scrollToEnd();
      reportViewport();
      return;
    }
    const lastBefore = before[before.length - 1]?.key;
    const last = rows[rows.length - 1];
    const appended =
      last !== undefined && last.key !== lastBefore && !before.some((r) => r.key === last.key) && (!hadNewer || last.kind === 'outbox');
    const ownAppended = appended && (last.kind === 'outbox' || rowMessage(last)?.user_id === selfId);
    if (ownAppended && view.hasNewer) {
      // The reader's own send goes to the end of the chat, past what was trimmed: the latest page comes first.
      jumpToLatest();
    } else if (appended && (pinned.current || nearBottom.current || ownAppended)) {
      scrollToEnd();
    } else {
      // Pages above, trims, edits: the anchor stays (even at the bottom, so a reader who starts scrolling up
      // at once is not pulled back down by a scroll to the end).
      if (!restoreAnchor() && pinned.current) scrollToEnd();
      if (appended && !view.hasNewer) {
        const known = new Set(before.map((r) => r.key));
        const lastBeforeIndex = lastBefore === undefined ? -1 : (indexOf(lastBefore) ?? -1);
        let fresh = 0;
        for (let i = lastBeforeIndex + 1; i < rows.length; i++) {
          const row = rows[i];
          if (row?.kind === 'message' && !known.has(row.key) && row.message.user_id !== selfId) fresh += 1;
        }
        if (fresh > 0) setUnseen((n) => n + fresh);
      }
    }
    const target = quoteTarget.current;
    if (target) scrollToQuoted(target.id);
    checkTop();
    reportViewport();
    forgetGoneSizes();
    // Runs when the rows change (or the target settled); everything else it reads is a ref or this render's value.
  }, [rows, view.loaded, target?.settled]);

  /** Centres the row at `index` by writing the scroll position, and holds it there (heldKey). */
  function centreOn(index: number) {
    const el = scrollRef.current;
    const row = rows[index];
    const offset = virtualizer.getOffsetForIndex(index, 'center')?.[0];
    if (!el || !row || offset === undefined) return;
    virtualizer.cancelScroll();
    heldKey.current = row.key;
    el.scrollTop = offset;
    virtualizer.scrollOffset = el.scrollTop;
    captureAnchor();
  }

  /** The first message row at or after `messageId`, else the last row. */
  function nearestIndex(messageId: number): number | undefined {
    const at = rows.findIndex((row) => row.kind === 'message' && row.message.id >= messageId);
    return at >= 0 ? at : rows.length > 0 ? rows.length - 1 : undefined;
  }

  // Messages that arrive while the window is trimmed at its newer end do not join it: they are counted here.
  const lastLatest = useRef(latest?.id ?? 0);
  useEffect(() => {
    const id = latest?.id ?? 0;
    if (id <= lastLatest.current) return;
    lastLatest.current = id;
    if (viewRef.current.hasNewer && latest && latest.user_id !== selfId && !isEventMessage(latest) && !nearBottom.current) {
      setUnseen((n) => n + 1);
    }
  }, [latest, selfId]);

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

  /** Scrolls to a message, fetching older pages first when it is not loaded yet (a reply's quote). */
  function scrollToQuoted(messageId: number) {
    const index = indexOf(`m-${messageId}`);
    if (index !== undefined) {
      quoteTarget.current = null;
      pinned.current = false;
      centreOn(index);
      setHighlight(messageId);
      return;
    }
    const current = viewRef.current;
    const oldest = current.messages[0]?.id ?? 0;
    const target = quoteTarget.current ?? { id: messageId, pages: 0 };
    if (!current.hasOlder || oldest <= messageId || target.pages >= MAX_PAGES_TO_QUOTE) {
      quoteTarget.current = null;
      return;
    }
    quoteTarget.current = { id: messageId, pages: target.pages + 1 };
    // The engine keeps the loaded top while the quote is being fetched (reportViewport) and loads ahead of it.
    reportViewport();
    loadOlder();
  }
  const scrollToQuotedRef = useRef(scrollToQuoted);
  scrollToQuotedRef.current = scrollToQuoted;

  useEffect(() => {
    registerScroller((id) => scrollToQuotedRef.current(id));
    return () => registerScroller(null);
  }, [registerScroller]);

  useEffect(() => {
    if (highlight === null) return;
    const timer = setTimeout(() => setHighlight(null), 1_500);
    return () => clearTimeout(timer);
  }, [highlight]);

  useEffect(() => {
    if (found === null) return;
    const timer = setTimeout(() => setFound(null), FOUND_MS);
    return () => clearTimeout(timer);
  }, [found]);

  const observe = useMarkVisible(conversationId);
  const measure = useCallback((el: HTMLDivElement | null) => virtualizer.measureElement(el), [virtualizer]);
  const slotRef = useSlotRefs(rows, measure, observe);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="chat-list-wrap">
      {loadingOlder ? (
        <p className="chat-list-loading" role="status">
          {t('chat.list.loadingOlder')}
        </p>
      ) : null}
      {olderError ? (
        // Spec §8: 'Failed to load conversation messages', and why (the server's words or the call's text).
        <div className="chat-list-error" role="alert" data-chat-error="older">
          <p className="chat-list-error__text">
            <strong>{t('chat.list.olderFailed')}</strong> <span>{errorText(olderError, t)}</span>
          </p>
          <button type="button" className="mx-button" onClick={loadOlder}>
            {t('chat.list.retry')}
          </button>
        </div>
      ) : null}
      <div
        ref={scrollRef}
        className="chat-list"
        onScroll={onScroll}
        onWheel={letGo}
        onPointerDown={letGo}
        onTouchStart={letGo}
        onKeyDown={letGo}
        role="log"
        aria-label={t('chat.list.label')}
        aria-busy={loadingOlder || (!view.loaded && !failed)}
        tabIndex={0}
      >
        {!view.loaded && rows.length === 0 && !failed ? <p className="chat-list-empty">{t('chat.list.loading')}</p> : null}
        {view.loaded && rows.length === 0 ? <p className="chat-list-empty">{t('chat.list.empty')}</p> : null}
        <div className="chat-list-inner" style={{ height: virtualizer.getTotalSize() }} data-space-above={spaceAbove}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const message = rowMessage(row);
            const watch = message !== null && message.user_id !== selfId;
            return (
              <div
                key={item.key}
                data-index={item.index}
                data-row-kind={row.kind}
                className={`chat-row-slot${message !== null && message.id === highlight ? ' chat-row-highlight' : ''}${
                  message !== null && message.id === found ? ' chat-row-found' : ''
                }`}
                style={{ transform: `translateY(${item.start}px)` }}
                ref={slotRef(row.key, watch ? message.id : null)}
              >
                {row.kind === 'day' ? (
                  <div className="chat-day" role="separator">
                    <span>{dayLabel(row.date, today, i18n.language, t)}</span>
                  </div>
                ) : (
                  <RowBoundary kind="message" resetKey={row.kind === 'message' ? row.message : row.entry}>
                    {row.kind === 'message' ? (
                      <MessageRow
                        message={row.message}
                        runStart={row.runStart}
                        quoted={row.message.quoted !== null ? findLoaded(view.messages, row.message.quoted) : undefined}
                        receipt={row.message.user_id === selfId ? receiptStatus(row.message.id, levels) : null}
                        today={today}
                      />
                    ) : (
                      <OutboxRow entry={row.entry} />
                    )}
                  </RowBoundary>
                )}
              </div>
            );
          })}
        </div>
      </div>
      {showJump ? <JumpToLatest count={unseen} onJump={jumpToLatest} /> : null}
    </div>
  );
}
