import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommentsView, OutboxEntry, ParticipantsById } from '../../../engine/api';
import type { Comment } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { useEngine } from '../../hooks/EngineContext';
import { LOAD_OLDER_THRESHOLD_PX, SCROLL_DEBOUNCE_MS } from '../list/scrollRules';
import { useNow } from '../../hooks/useNow';
import { CommentItem } from './CommentItem';
import { PendingComment } from './PendingComment';
import { RowBoundary } from '../../common/RowBoundary';

type Row = { kind: 'comment'; key: string; comment: Comment } | { kind: 'pending'; key: string; entry: OutboxEntry };

/** Within this of the bottom the list follows new comments; further up the reader keeps their place. */
const FOLLOW_PX = 80;

/**
 * A post's comments, oldest first, virtualised: it opens at the latest, loads older pages (50 each) when the
 * reader scrolls within 200 px of the top (after 100 ms without scrolling, as the chat does) keeping what
 * they look at in place, and follows new ones while the reader is at the bottom. The user's comments still
 * in the outbox come last, with their state.
 */
export function CommentList(props: {
  channelId: number;
  postId: number;
  view: CommentsView;
  loading: boolean;
  participants: ParticipantsById;
  expanded: ReadonlySet<number>;
  onToggleReplies: (commentId: number) => void;
  onReply: (comment: Comment) => void;
  /** The comments whose replies the thread has asked for already (kept while rows come and go). */
  requested: Set<number>;
}) {
  const { channelId, postId, view, loading, participants, expanded, onToggleReplies, onReply, requested } = props;
  const { t } = useTranslation();
  const engine = useEngine();
  const now = useNow();
  const rows: Row[] = [
    ...view.comments.map((comment): Row => ({ kind: 'comment', key: `c-${comment.comment_id}`, comment })),
    ...view.pending.map((entry): Row => ({ kind: 'pending', key: entry.localId, entry })),
  ];
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 6,
    paddingStart: 8,
    paddingEnd: 8,
  });
  const following = useRef(true);
  const anchor = useRef<{ key: string; offset: number } | null>(null);
  const firstKey = useRef<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderFailure, setOlderFailure] = useState<{ error: unknown } | null>(null);
  const busy = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const viewRef = useRef(view);
  viewRef.current = view;

  const loadOlder = useCallback(() => {
    if (busy.current || !viewRef.current.hasOlder) return;
    const el = scrollRef.current;
    const top = el?.scrollTop ?? 0;
    // The first row in view and how far below the top it is: it stays there once the older page is in.
    const item = virtualizer.measurementsCache.find((m) => m.end > top);
    anchor.current = item ? { key: String(item.key), offset: item.start - top } : null;
    busy.current = true;
    setLoadingOlder(true);
    setOlderFailure(null);
    engine
      .loadOlderComments(channelId, postId)
      .catch((error: unknown) => setOlderFailure({ error }))
      .finally(() => {
        // The page is in by now (the engine answers after its values reached the tab): an anchor still
        // held belongs to a load that brought nothing, and must not move a later change.
        anchor.current = null;
        busy.current = false;
        setLoadingOlder(false);
      });
  }, [engine, channelId, postId, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_PX;
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (el.scrollTop < LOAD_OLDER_THRESHOLD_PX) loadOlder();
    }, SCROLL_DEBOUNCE_MS);
  };
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  // After the rows change: an older page keeps its anchor in place; at the bottom, the list follows.
  const count = rows.length;
  const first = rows[0]?.key ?? null;
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const prepended = firstKey.current !== null && first !== firstKey.current;
    firstKey.current = first;
    const held = anchor.current;
    if (prepended && held) {
      anchor.current = null;
      const index = rows.findIndex((r) => r.key === held.key);
      const start = index >= 0 ? virtualizer.getOffsetForIndex(index, 'start')?.[0] : undefined;
      if (start !== undefined) el.scrollTop = start - held.offset;
      return;
    }
    if (following.current && count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
    // `rows` is rebuilt each render; its first key and length say what changed.
  }, [count, first, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const empty = !loading && view.loaded && rows.length === 0;
  // Everything but the rows stays outside the scroll box: the virtualiser's offsets start at its top.
  return (
    <div className="thread__list-wrap">
      {view.hasOlder ? (
        <button
          type="button"
          className="mx-button mx-button--link thread__show-older"
          onClick={loadOlder}
          disabled={loadingOlder}
          aria-busy={loadingOlder || undefined}
        >
          {loadingOlder ? t('comments.loadingOlder') : t('comments.showOlder')}
        </button>
      ) : null}
      {olderFailure ? (
        <div className="thread__older" role="alert">
          <span>{errorText(olderFailure.error, t)}</span>{' '}
          <button type="button" className="mx-button mx-button--link" onClick={loadOlder}>
            {t('comments.retry')}
          </button>
        </div>
      ) : null}
      {loading ? (
        <p className="thread__state" role="status">
          {t('comments.loading')}
        </p>
      ) : null}
      {empty ? <p className="thread__state">{t('comments.empty')}</p> : null}
      <div
        ref={scrollRef}
        className="thread__list"
        onScroll={onScroll}
        role="log"
        aria-label={t('comments.list')}
        aria-busy={loading || loadingOlder || undefined}
      >
        <div className="thread__list-inner" style={{ height: virtualizer.getTotalSize() }}>
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                className="thread__slot"
                style={{ transform: `translateY(${item.start}px)` }}
                ref={virtualizer.measureElement}
              >
                <RowBoundary kind="comment" resetKey={row.kind === 'comment' ? row.comment : row.entry}>
                  {row.kind === 'comment' ? (
                    <CommentItem
                      channelId={channelId}
                      postId={postId}
                      comment={row.comment}
                      participants={participants}
                      now={now}
                      expanded={expanded.has(row.comment.comment_id)}
                      onToggleReplies={onToggleReplies}
                      onReply={onReply}
                      requested={requested}
                    />
                  ) : (
                    <PendingComment entry={row.entry} />
                  )}
                </RowBoundary>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
