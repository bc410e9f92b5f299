import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FirstUnread, MessageWindowView, OutboxEntry } from '../../../engine/api';
import type { Message } from '../../../protocol/entities';
import { today as todayOf } from '../../common/time';
import { useEngine } from '../../hooks/EngineContext';
import { useNow } from '../../hooks/useNow';
import { useQuery } from '../../hooks/useQuery';
import { useChatRow } from '../ChatContext';
import { isEventMessage } from '../message/eventText';
import { memberUserId } from '../message/members';
import { receiptLevels, watermarksOf } from '../message/receiptStatus';
import { useReceiptMarks } from '../message/useReceiptMarks';
import { JumpToLatest } from './JumpToLatest';
import { ListRow } from './ListRow';
import { OlderPagesStatus } from './OlderPagesStatus';
import {
  buildMessageRows,
  type ChatRow,
  findLoaded,
  type MessageRows,
  nearestIndex,
  rowIndex,
  rowMessage,
  type UnreadDivider,
  withOutbox,
} from './rows';
import { useFlash } from './useFlash';
import { useMarkVisible } from './useMarkVisible';
import { useOlderPages } from './useOlderPages';
import { useScrollKeeping } from './useScrollKeeping';
import { useSlotRefs } from './useSlotRefs';
import { useViewportReport } from './useViewportReport';

const EMPTY_VIEW: MessageWindowView = { messages: [], hasOlder: false, hasNewer: false, loaded: false };
const NO_OUTBOX: readonly OutboxEntry[] = [];
/** At most this many older pages are fetched to reach a quoted message that is not loaded yet. */
const MAX_PAGES_TO_QUOTE = 50;
/** How long a message opened from a search stays highlighted (issue 13). */
export const FOUND_MS = 2_000;
/** How long a message reached from a reply's quote stays highlighted. */
const QUOTED_MS = 1_500;

/** The message a chat opens at (a search hit, issue 13), and whether the engine has finished loading around it. */
export interface OpenTarget {
  messageId: number;
  settled: boolean;
}

/**
 * The virtualised, bottom-anchored message list (spec §4): opens at the latest message, loads older pages
 * near the top without moving what the reader looks at, follows new messages only near the bottom and
 * otherwise offers "Jump to latest" (all of which useScrollKeeping does). It tells the engine which messages
 * are on screen (`setViewport`), and the engine keeps pages loaded ahead of them and trims what is far away
 * (issue 11). Given a `target`, it opens at that message instead (centred, highlighted for FOUND_MS) once the
 * engine has loaded around it, or at the nearest message after it when it is gone (issue 13); a remount opens
 * it again. Opened at the latest, a chat that had unread messages waits for the engine to say where they
 * began (`firstUnread`), shows the unread divider above the first of them and opens with it at the top, or at
 * the end when everything from it down fits on screen (docs/ui.md, "Opening at the first unread message").
 */
export function MessageList({
  conversationId,
  latest,
  failed = false,
  offline = false,
  target = null,
  firstUnread,
  hadUnread = false,
}: {
  conversationId: number;
  /** The chat's latest message as the chats list knows it (a prop: the chat's UI context changes more often). */
  latest: Message | null;
  failed?: boolean;
  /** The chat's messages wait for the connection: an empty list says so instead of "Loading". */
  offline?: boolean;
  target?: OpenTarget | null;
  /** Where the unread messages began at this opening: undefined until the engine answers, null when none were. */
  firstUnread?: FirstUnread | null;
  /** The chat had unread messages when the list mounted: it opens only once `firstUnread` is answered. */
  hadUnread?: boolean;
}) {
  const { t } = useTranslation();
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
  // The divider stays while the chat is open, until the reader sends (docs/ui.md).
  const [waitsForUnread] = useState(hadUnread);
  const [dividerShown, setDividerShown] = useState(true);
  const dividerId = dividerShown ? firstUnread?.messageId : undefined;
  const dividerCount = firstUnread?.count ?? 0;
  const divider = useMemo<UnreadDivider | null>(
    () => (dividerId === undefined ? null : { messageId: dividerId, count: dividerCount }),
    [dividerId, dividerCount],
  );
  /** The sends already waiting when the outbox first answered: only a send made after them drops the divider. */
  const sendsAtOpening = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (outbox === NO_OUTBOX) return;
    sendsAtOpening.current ??= new Set(pending.map((e) => e.localId));
    if (pending.some((e) => !sendsAtOpening.current?.has(e.localId))) setDividerShown(false);
  }, [outbox, pending]);

  // A new message extends the last build's rows instead of building every row again.
  const lastRows = useRef<MessageRows | undefined>(undefined);
  const messageRows = useMemo(
    () => buildMessageRows(view.messages, view.hasOlder, lastRows.current, divider),
    [view.messages, view.hasOlder, divider],
  );
  lastRows.current = messageRows;
  const rows = useMemo(() => withOutbox(messageRows, pending), [messageRows, pending]);
  const indexOf = (key: string) => rowIndex(messageRows, rows, key);
  const others = useMemo(
    () => conversation.users.map((u) => memberUserId(u.user)).filter((id) => id !== selfId),
    [conversation.users, selfId],
  );
  // Worked out once per change of the receipts or the members, not per row (a row compares two numbers).
  const levels = useMemo(
    () => receiptLevels(watermarksOf(marks, (id) => findLoaded(view.messages, id)?.user_id === selfId), others),
    [marks, view.messages, selfId, others],
  );

  const marking = useMarkVisible(conversationId);
  const { observe } = marking;
  const [highlight, setHighlight] = useFlash(QUOTED_MS);
  const [found, setFound] = useFlash(FOUND_MS);
  /** A reply's quoted message being fetched page by page, and how many pages it took so far. */
  const quoteTarget = useRef<{ id: number; pages: number } | null>(null);
  const older = useOlderPages(conversationId, view, () => {
    quoteTarget.current = null;
  });
  const reportViewport = useViewportReport(conversationId, view.messages, () => quoteTarget.current !== null);

  /**
   * Opened at a message: wait for the page around it, then centre it (or the nearest one after it). Opened at the
   * latest with unread messages: wait for where they began, then the divider at the top (or the end, if it fits).
   */
  const openAt = (): number | { top: number } | 'end' | 'wait' => {
    if (!target) {
      if (waitsForUnread && firstUnread === undefined) return 'wait';
      const at = divider ? indexOf(`unread-${divider.messageId}`) : undefined;
      return at === undefined ? 'end' : { top: at };
    }
    const exact = indexOf(`m-${target.messageId}`);
    const index = exact ?? (target.settled ? nearestIndex(rows, target.messageId) : undefined);
    if (index === undefined) return 'wait';
    if (exact !== undefined) setFound(target.messageId);
    return index;
  };

  const keeping = useScrollKeeping({
    rows,
    indexOf,
    loaded: view.loaded,
    hasOlder: view.hasOlder,
    hasNewer: view.hasNewer === true,
    openAt,
    openKey: `${String(target?.settled)}:${firstUnread === undefined ? 'asking' : 'answered'}`,
    isOwn: (row: ChatRow) => row.kind === 'outbox' || rowMessage(row)?.user_id === selfId,
    loadOlder: older.loadOlder,
    loadLatest: () => engine.loadLatestMessages(conversationId),
    onVisible: reportViewport,
    afterRowsChange: () => {
      const quoted = quoteTarget.current;
      if (quoted) scrollToQuoted(quoted.id);
    },
    onOpened: () => marking.start(),
  });
  const { virtualizer } = keeping;

  /** Scrolls to a message, fetching older pages first when it is not loaded yet (a reply's quote). */
  function scrollToQuoted(messageId: number) {
    const index = indexOf(`m-${messageId}`);
    if (index !== undefined) {
      quoteTarget.current = null;
      keeping.centreOn(index);
      setHighlight(messageId);
      return;
    }
    const oldest = view.messages[0]?.id ?? 0;
    const quoted = quoteTarget.current ?? { id: messageId, pages: 0 };
    if (!view.hasOlder || oldest <= messageId || quoted.pages >= MAX_PAGES_TO_QUOTE) {
      quoteTarget.current = null;
      return;
    }
    quoteTarget.current = { id: messageId, pages: quoted.pages + 1 };
    // The engine keeps the loaded top while the quote is being fetched (reportViewport) and loads ahead of it.
    keeping.reportVisible();
    older.loadOlder();
  }
  const scrollToQuotedRef = useRef(scrollToQuoted);
  scrollToQuotedRef.current = scrollToQuoted;

  useEffect(() => {
    registerScroller((id) => scrollToQuotedRef.current(id));
    return () => registerScroller(null);
  }, [registerScroller]);

  // Messages that arrive while the window is trimmed at its newer end do not join it: they are counted here.
  const hasNewer = useRef(view.hasNewer);
  hasNewer.current = view.hasNewer;
  const lastLatest = useRef(latest?.id ?? 0);
  const { addUnseen, isNearBottom } = keeping;
  useEffect(() => {
    const id = latest?.id ?? 0;
    if (id <= lastLatest.current) return;
    lastLatest.current = id;
    if (hasNewer.current && latest && latest.user_id !== selfId && !isEventMessage(latest) && !isNearBottom()) addUnseen(1);
  }, [latest, selfId, addUnseen, isNearBottom]);

  const measure = useCallback((el: HTMLDivElement | null) => virtualizer.measureElement(el), [virtualizer]);
  const slotRef = useSlotRefs(rows, measure, observe);

  const items = virtualizer.getVirtualItems();
  return (
    <div className="chat-list-wrap">
      <OlderPagesStatus loading={older.loadingOlder} error={older.olderError} onRetry={older.loadOlder} />
      <div
        ref={keeping.scrollRef}
        className="chat-list"
        {...keeping.listeners}
        role="log"
        aria-label={t('chat.list.label')}
        aria-busy={older.loadingOlder || (!view.loaded && !failed)}
        tabIndex={0}
      >
        {!view.loaded && rows.length === 0 && !failed ? (
          <p className="chat-list-empty">{offline ? t('chat.list.offline') : t('chat.list.loading')}</p>
        ) : null}
        {view.loaded && rows.length === 0 ? <p className="chat-list-empty">{t('chat.list.empty')}</p> : null}
        <div className="chat-list-inner" style={{ height: virtualizer.getTotalSize() }} data-space-above={keeping.spaceAbove}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <ListRow
                key={item.key}
                row={row}
                index={item.index}
                start={item.start}
                slotRef={slotRef}
                highlight={highlight}
                found={found}
                loaded={view.messages}
                selfId={selfId}
                levels={levels}
                today={today}
              />
            );
          })}
        </div>
      </div>
      {keeping.showJump ? <JumpToLatest count={keeping.unseen} onJump={keeping.jumpToLatest} /> : null}
    </div>
  );
}
