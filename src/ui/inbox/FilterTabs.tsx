import { type KeyboardEvent, useRef } from 'react';
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
    <div className="inbox-tabs" role="tablist" aria-label={t('inbox.filter.label')}>
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
