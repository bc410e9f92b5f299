import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatFilter } from './filters';

const LABEL_KEYS: Record<ChatFilter, string> = {
  all: 'inbox.filter.all',
  unread: 'inbox.filter.unread',
  communities: 'inbox.filter.communities',
  groups: 'inbox.filter.groups',
};

/** A tablist (WAI-ARIA tabs pattern): one tab stop, arrows/Home/End move and select. */
export function FilterTabs({
  filters,
  value,
  onChange,
  panelId,
}: {
  filters: readonly ChatFilter[];
  value: ChatFilter;
  onChange: (filter: ChatFilter) => void;
  panelId: string;
}) {
  const { t } = useTranslation();
  const refs = useRef(new Map<ChatFilter, HTMLButtonElement>());
  const listRef = useRef<HTMLDivElement>(null);
  const more = useOverflowEdges(listRef, filters);
  // Where the row scrolls (a narrow window), the chosen tab is brought into view. By its scroll offset, not
  // scrollIntoView, which would also move where the next Tab press starts from.
  const placed = useRef(false);
  useEffect(() => {
    // A new row is at its start, where the first tab shows: nothing to read, and reading would force the
    // layout of the screen still being mounted.
    const first = !placed.current;
    placed.current = true;
    if (first && value === filters[0]) return;
    const row = listRef.current;
    const tab = refs.current.get(value);
    if (!row || !tab || row.scrollWidth <= row.clientWidth) return;
    // The row's padding counts as the tab's margin, so the first and last tabs scroll the row to its ends.
    const box = row.getBoundingClientRect();
    const style = getComputedStyle(row);
    const left = box.left + parseFloat(style.paddingLeft);
    const right = box.right - parseFloat(style.paddingRight);
    const at = tab.getBoundingClientRect();
    if (at.left < left) row.scrollLeft -= left - at.left;
    else if (at.right > right) row.scrollLeft += at.right - right;
  }, [value, filters]);
  const move = (event: KeyboardEvent, index: number) => {
    const last = filters.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last ? 0 : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0 ? last : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    const filter = filters[next];
    if (!filter) return;
    onChange(filter);
    refs.current.get(filter)?.focus();
  };
  return (
    <div ref={listRef} className="inbox-tabs" role="tablist" aria-label={t('inbox.filter.label')} data-more={more ?? undefined}>
      {filters.map((filter, index) => (
        <button
          key={filter}
          ref={(el) => {
            if (el) refs.current.set(filter, el);
            else refs.current.delete(filter);
          }}
          type="button"
          role="tab"
          id={`inbox-tab-${filter}`}
          aria-selected={value === filter}
          aria-controls={panelId}
          tabIndex={value === filter ? 0 : -1}
          className="inbox-tabs__tab"
          onClick={() => onChange(filter)}
          onKeyDown={(event) => move(event, index)}
        >
          {t(LABEL_KEYS[filter])}
        </button>
      ))}
    </div>
  );
}

type Edges = 'start' | 'end' | 'both' | null;

/**
 * Which edges of a row that scrolls sideways hide tabs (for the fade that says so), or null when all show.
 * Followed as the row scrolls and as its size or its tabs' change (a language, a window).
 */
function useOverflowEdges(ref: { current: HTMLElement | null }, tabs: readonly unknown[]): Edges {
  const [edges, setEdges] = useState<Edges>(null);
  // Set up again only when the tabs change: the observer follows sizes (a language, a window) by itself.
  // Measured first when the observer reports, after the browser's layout, not at once: a read here forced
  // the layout, after every render of the list (every message) and while the screen mounts.
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const measure = () => {
      const start = row.scrollLeft > 1;
      const end = row.scrollLeft + row.clientWidth < row.scrollWidth - 1;
      setEdges(start && end ? 'both' : start ? 'start' : end ? 'end' : null);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(row);
    for (const tab of Array.from(row.children)) observer.observe(tab);
    row.addEventListener('scroll', measure, { passive: true });
    return () => {
      observer.disconnect();
      row.removeEventListener('scroll', measure);
    };
  }, [ref, tabs]);
  return edges;
}
