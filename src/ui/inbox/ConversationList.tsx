import { elementScroll, type Rect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { ConversationListItem } from '../../engine/api';
import { useQuery } from '../hooks/useQuery';
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
 * virtual-core's size and scroll adapters for the list, less the layout they read and write as the list
 * mounts: done in the layout effect of the list's first commit, that forced the style and layout of the whole
 * screen into the commit's task, under the commit's deep call stack (which DevTools' tracing, Lighthouse's
 * too, records with every invalidation). The size comes from the ResizeObserver once the browser has laid the
 * list out (`initialRect` until then), and the first scroll write, to the top where a new list is already,
 * is left out.
 */
function observeRectAfterLayout(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element) return undefined;
  const report = () => cb({ width: element.clientWidth, height: element.clientHeight });
  if (typeof ResizeObserver === 'undefined') {
    report();
    return undefined;
  }
  const observer = new ResizeObserver(report);
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

const scrolledOnce = new WeakSet<Element>();
const NO_DRAFTS: Readonly<Record<number, string>> = {};

function scrollUnlessNewAtTop(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<HTMLDivElement, Element>,
): void {
  const element = instance.scrollElement;
  if (element && !scrolledOnce.has(element)) {
    scrolledOnce.add(element);
    if (offset + (options.adjustments ?? 0) === 0) return;
  }
  elementScroll(offset, options, instance);
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
  const drafts = useQuery((engine) => engine.drafts(), [], NO_DRAFTS);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
    getItemKey: (index) => items[index]?.conversation.id ?? index,
    // Without a size before its first measure the virtualizer renders no row at first, then every row in a
    // synchronous re-render from its layout effect: one long task with the commit, where the first render (a
    // transition, useQuery) is rendered in slices. The list is not taller than the screen, whose size, unlike
    // the window's, is read without forcing a layout.
    initialRect: { width: 0, height: screen.height },
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollUnlessNewAtTop,
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
                <ConversationRow
                  item={item}
                  now={now}
                  selected={item.conversation.id === openId}
                  selfId={selfId}
                  // The open chat's draft is in its composer, being typed: its row keeps the last message.
                  draft={item.conversation.id === openId ? undefined : drafts[item.conversation.id]}
                />
              </RowBoundary>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
