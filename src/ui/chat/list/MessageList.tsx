import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageWindowView, OutboxEntry } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { useEngine } from '../../hooks/EngineContext';
import { useQuery } from '../../hooks/useQuery';
import { useChatUi } from '../ChatContext';
import { MessageRow } from '../message/MessageRow';
import { memberUserId } from '../message/members';
import { dayLabel } from '../message/messageTime';
import { OutboxRow } from '../message/OutboxRow';
import { receiptStatus, watermarks } from '../message/receiptStatus';
import { useReceiptMarks } from '../message/useReceiptMarks';
import { JumpToLatest } from './JumpToLatest';
import { buildRows, type ChatRow } from './rows';
import { LOAD_OLDER_THRESHOLD_PX, NEAR_BOTTOM_PX, PINNED_PX, SCROLL_DEBOUNCE_MS } from './scrollRules';
import { useMarkVisible } from './useMarkVisible';
import { useNow } from '../../hooks/useNow';
import { useSlotRefs } from './useSlotRefs';

const EMPTY_VIEW: MessageWindowView = { messages: [], hasOlder: false, loaded: false };
const NO_OUTBOX: readonly OutboxEntry[] = [];
/** At most this many older pages are fetched to reach a quoted message that is not loaded yet. */
const MAX_PAGES_TO_QUOTE = 50;

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
 * otherwise offers "Jump to latest".
 */
export function MessageList({ conversationId, failed = false }: { conversationId: number; failed?: boolean }) {
  const { t, i18n } = useTranslation();
  const engine = useEngine();
  const { conversation, selfId, registerScroller } = useChatUi();
  const view = useQuery((e) => e.messages(conversationId), [conversationId], EMPTY_VIEW);
  const outbox = useQuery((e) => e.outbox(), [], NO_OUTBOX);
  const marks = useReceiptMarks(conversationId);
  const now = useNow();

  const pending = useMemo(
    // Comments wait in the outbox too; they belong to their post's thread, not to the chat.
    () => outbox.filter((e) => e.conversationId === conversationId && e.userId === selfId && e.comment === null),
    [outbox, conversationId, selfId],
  );
  const rows = useMemo(() => buildRows(view.messages, view.hasOlder, pending), [view.messages, view.hasOlder, pending]);
  const byId = useMemo(() => new Map(view.messages.map((m) => [m.id, m])), [view.messages]);
  const receipts = useMemo(() => {
    const own = view.messages.filter((m) => m.user_id === selfId);
    const others = conversation.users.map((u) => memberUserId(u.user)).filter((id) => id !== selfId);
    const marksOf = watermarks(own, marks);
    return new Map(own.map((m) => [m.id, receiptStatus(m.id, marksOf, others)]));
  }, [view.messages, marks, selfId, conversation.users]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => estimateRow(rows[index]),
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 6,
    paddingStart: 8,
    paddingEnd: 8,
  });
  // Height changes never move the scroll position by themselves: the list keeps its anchor row in place
  // instead (restoreAnchor), which also covers a row across the top edge that changes at its top (its
  // sender line or a day separator coming or going once older messages arrive above it).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = () => false;

  // Where the reader is, as of the last scroll or layout: kept in refs, read when the rows change.
  const pinned = useRef(true);
  const nearBottom = useRef(true);
  const anchor = useRef<{ key: string; offset: number } | null>(null);
  const previousRows = useRef<readonly ChatRow[] | null>(null);
  const initialDone = useRef(false);
  const lastTotal = useRef(0);
  const [showJump, setShowJump] = useState(false);
  const [unseen, setUnseen] = useState(0);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);
  const [highlight, setHighlight] = useState<number | null>(null);
  const loading = useRef(false);
  const quoteTarget = useRef<{ id: number; pages: number } | null>(null);
  const topTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const viewRef = useRef(view);
  viewRef.current = view;

  /**
   * The anchor: the first message row whose top is inside the viewport, and how far below the top edge.
   * Rows above it may change height (measured at last, a sender line or a separator coming or going) without
   * moving it; a day separator is skipped, as it may go when older messages arrive.
   */
  const captureAnchor = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const top = el.scrollTop;
    const atTop = virtualizer.getVirtualItemForOffset(top);
    const measurements = virtualizer.measurementsCache;
    let index = atTop ? atTop.index : 0;
    while (
      index < measurements.length &&
      ((measurements[index]?.start ?? 0) < top || rows[index]?.kind === 'day')
    ) {
      index += 1;
    }
    const item = measurements[index] ?? atTop;
    anchor.current = item ? { key: String(item.key), offset: item.start - top } : null;
  }, [virtualizer, rows]);

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

  /** Spec §4: older messages load when the list is within 200 px of the top, debounced 100 ms. */
  const checkTop = useCallback(() => {
    if (topTimer.current !== null) clearTimeout(topTimer.current);
    topTimer.current = setTimeout(() => {
      topTimer.current = null;
      const el = scrollRef.current;
      if (el && el.scrollTop < LOAD_OLDER_THRESHOLD_PX) loadOlder();
    }, SCROLL_DEBOUNCE_MS);
  }, [loadOlder]);
  useEffect(
    () => () => {
      if (topTimer.current !== null) clearTimeout(topTimer.current);
    },
    [],
  );

  const readPosition = useCallback(() => {
    const el = scrollRef.current;
    if (!el) return;
    const distance = el.scrollHeight - el.scrollTop - el.clientHeight;
    pinned.current = distance <= PINNED_PX;
    nearBottom.current = distance <= NEAR_BOTTOM_PX;
    setShowJump(!nearBottom.current);
    if (nearBottom.current) setUnseen(0);
  }, []);

  const onScroll = useCallback(() => {
    readPosition();
    captureAnchor();
    if (initialDone.current && scrollRef.current && scrollRef.current.scrollTop < LOAD_OLDER_THRESHOLD_PX) checkTop();
  }, [readPosition, captureAnchor, checkTop]);

  const scrollToEnd = useCallback(() => {
    pinned.current = true;
    nearBottom.current = true;
    setShowJump(false);
    setUnseen(0);
    virtualizer.scrollToEnd();
  }, [virtualizer]);

  // The rows changed: open at the end, follow new messages near the bottom, else keep the anchor in place.
  useLayoutEffect(() => {
    const before = previousRows.current;
    previousRows.current = rows;
    if (!view.loaded || rows.length === 0) return;
    if (!initialDone.current) {
      initialDone.current = true;
      scrollToEnd();
      checkTop();
      return;
    }
    if (!before || before === rows) return;
    const lastBefore = before[before.length - 1]?.key;
    const last = rows[rows.length - 1];
    const appended = last !== undefined && last.key !== lastBefore && !before.some((r) => r.key === last.key);
    const ownAppended = appended && (last.kind === 'outbox' || rowMessage(last)?.user_id === selfId);
    if (pinned.current || (appended && (nearBottom.current || ownAppended))) {
      scrollToEnd();
    } else {
      restoreAnchor();
      if (appended) {
        const known = new Set(before.map((r) => r.key));
        const fresh = rows.filter((r) => r.kind === 'message' && !known.has(r.key) && r.message.user_id !== selfId);
        const lastBeforeIndex = rows.findIndex((r) => r.key === lastBefore);
        setUnseen((n) => n + fresh.filter((r) => rows.indexOf(r) > lastBeforeIndex).length);
      }
    }
    const target = quoteTarget.current;
    if (target) scrollToQuoted(target.id);
    checkTop();
    // Runs when the rows change; everything else it reads is a ref or this render's value.
  }, [rows, view.loaded]);

  function restoreAnchor() {
    const saved = anchor.current;
    if (!saved) return;
    const index = rows.findIndex((r) => r.key === saved.key);
    if (index < 0) return;
    virtualizer.getVirtualItems();
    const item = virtualizer.measurementsCache[index];
    if (!item) return;
    const target = item.start - saved.offset;
    const el = scrollRef.current;
    if (el && Math.abs(el.scrollTop - target) >= 1) virtualizer.scrollToOffset(target);
  }

  // Heights settled (pictures loaded, rows measured): a list pinned to the bottom stays there.
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    if (total !== lastTotal.current) {
      lastTotal.current = total;
      if (!initialDone.current) return;
      if (pinned.current) virtualizer.scrollToEnd();
      else restoreAnchor();
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

  /** Scrolls to a message, fetching older pages first when it is not loaded yet (a reply's quote). */
  function scrollToQuoted(messageId: number) {
    const index = rows.findIndex((r) => r.key === `m-${messageId}`);
    if (index >= 0) {
      quoteTarget.current = null;
      pinned.current = false;
      virtualizer.scrollToIndex(index, { align: 'center' });
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
        role="log"
        aria-label={t('chat.list.label')}
        aria-busy={loadingOlder || (!view.loaded && !failed)}
        tabIndex={0}
      >
        {!view.loaded && rows.length === 0 && !failed ? <p className="chat-list-empty">{t('chat.list.loading')}</p> : null}
        {view.loaded && rows.length === 0 ? <p className="chat-list-empty">{t('chat.list.empty')}</p> : null}
        <div className="chat-list-inner" style={{ height: virtualizer.getTotalSize() }}>
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
                className={`chat-row-slot${message !== null && message.id === highlight ? ' chat-row-highlight' : ''}`}
                style={{ transform: `translateY(${item.start}px)` }}
                ref={slotRef(row.key, watch ? message.id : null)}
              >
                {row.kind === 'day' ? (
                  <div className="chat-day" role="separator">
                    <span>{dayLabel(row.date, now, i18n.language, t)}</span>
                  </div>
                ) : row.kind === 'message' ? (
                  <MessageRow
                    message={row.message}
                    previous={row.previous}
                    quoted={row.message.quoted !== null ? byId.get(row.message.quoted) : undefined}
                    receipt={receipts.get(row.message.id) ?? null}
                    now={now}
                  />
                ) : (
                  <OutboxRow entry={row.entry} />
                )}
              </div>
            );
          })}
        </div>
      </div>
      {showJump ? <JumpToLatest count={unseen} onJump={scrollToEnd} /> : null}
    </div>
  );
}
