import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { ConversationListItem } from '../../engine/api';
import { useSession } from '../hooks/useSession';
import { ConversationRow, ROW_HEIGHT } from './ConversationRow';
import { RowBoundary } from '../common/RowBoundary';

/** Re-renders once a minute, so "Today 23:59" becomes "Yesterday" without a new message. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 60_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The chats list, virtualised (spec §2: smooth with 5,000 conversations): only the rows in view plus a
 * few either side are in the DOM. Rows are keyed by conversation id, so a reorder moves them.
 */
export function ConversationList({
  items,
  openId,
  fit = false,
}: {
  items: readonly ConversationListItem[];
  openId: number | null;
  /** Only as tall as its rows (up to a share of the panel): a search's messages follow it (issue 13). */
  fit?: boolean;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const now = useMinuteClock();
  const session = useSession();
  const selfId = session?.status === 'ready' ? session.userId : null;
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    getItemKey: (index) => items[index]?.conversation.id ?? index,
    // The list is never taller than the window. Without a size before its first measure, the virtualizer
    // renders no row at first, then every row in a synchronous re-render from its layout effect: one long
    // task with the commit, where the first render (a transition, useQuery) is rendered in slices.
    initialRect: { width: 0, height: window.innerHeight },
  });
  return (
    <div
      className={`inbox-list${fit ? ' inbox-list--fit' : ''}`}
      ref={scrollRef}
      data-testid="inbox-list"
      style={fit ? { height: items.length * ROW_HEIGHT } : undefined}
    >
      <ul className="inbox-list__inner" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((row) => {
          const item = items[row.index];
          if (!item) return null;
          return (
            <li
              key={row.key}
              className="inbox-list__row"
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
              aria-setsize={items.length}
              aria-posinset={row.index + 1}
            >
              <RowBoundary kind="chat" resetKey={item}>
                <ConversationRow item={item} now={now} selected={item.conversation.id === openId} selfId={selfId} />
              </RowBoundary>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
