import { memo, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConversationListItem } from '../../engine/api';
import { errorText } from '../common/errorText';
import { SearchField } from '../common/SearchField';
import { useQuery } from '../hooks/useQuery';
import { ConversationList } from './ConversationList';
import { FilterTabs } from './FilterTabs';
import { MessageResults } from './MessageResults';
import { type ChatFilter, filtersFor, visibleConversations } from './filters';
import { SkeletonRows } from './SkeletonRows';
import { useConversationsLoad } from './useConversationsLoad';
import './inbox.css';

const NONE: readonly ConversationListItem[] = [];

/** What an empty tab says (issue 23): an empty Unread tab is good news, not "No conversations yet". */
const EMPTY_KEYS: Record<ChatFilter, string> = {
  all: 'inbox.noneYet',
  unread: 'inbox.empty.unread',
  communities: 'inbox.empty.communities',
  groups: 'inbox.empty.groups',
};

/** Spec §2 chats list: title, add button, search, filter tabs, and the list with its loading, error and empty states. */
export const ChatsList = memo(function ChatsList({
  openId,
  communities,
  onAdd,
  onRetry,
}: {
  openId: number | null;
  communities: boolean;
  onAdd: () => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const list = useQuery((engine) => engine.conversations(), [], NONE);
  const load = useConversationsLoad();
  const [query, setQuery] = useState('');
  const [filter, setFilter] = useState<ChatFilter>('all');
  const filters = useMemo(() => filtersFor(communities), [communities]);
  const panelId = useId();
  // A tab that disappears (the country's answer came) falls back to All.
  useEffect(() => {
    if (!filters.includes(filter)) setFilter('all');
  }, [filters, filter]);
  const shown = visibleConversations(list, filter, query);
  // A query also searches the messages this device holds (issue 13): their section follows the chats.
  const searching = query.trim() !== '';
  const retry = () => {
    onRetry();
    load.retry();
  };

  let body;
  if (list.length === 0 && load.status === 'loading') {
    body = <SkeletonRows />;
  } else if (list.length === 0 && load.status === 'error') {
    body = (
      <div className="inbox-state" role="alert" data-inbox-state="error">
        {/* Spec §8: 'Failed to load conversations', and why: the server's words or 'Failed to fetch conversations list'. */}
        <p className="inbox-state__title">{t('inbox.loadFailed')}</p>
        <p className="inbox-state__detail">{errorText(load.error, t)}</p>
        <button type="button" className="mx-button mx-button--primary" onClick={retry}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (shown.length === 0) {
    body = (
      <div className="inbox-state">
        <p className="inbox-state__title">{query.trim() ? t('inbox.noneFound') : t(EMPTY_KEYS[filter])}</p>
      </div>
    );
  } else {
    body = <ConversationList items={shown} openId={openId} fit={searching} />;
  }

  return (
    <section className="chats-panel" aria-labelledby={`${panelId}-title`}>
      <header className="mx-panel-header">
        <h1 className="mx-panel-header__title" id={`${panelId}-title`}>
          {t('inbox.title')}
        </h1>
        <button type="button" className="mx-icon-button" onClick={onAdd} aria-label={t('inbox.newChat')} title={t('inbox.newChat')}>
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
            <path fill="currentColor" d="M11 5h2v6h6v2h-6v6h-2v-6H5v-2h6z" />
          </svg>
        </button>
      </header>
      <SearchField label={t('inbox.search')} value={query} onChange={setQuery} />
      <FilterTabs filters={filters} value={filter} onChange={setFilter} panelId={panelId} />
      <div
        className={`chats-panel__body${searching ? ' chats-panel__body--search' : ''}`}
        id={panelId}
        role="tabpanel"
        aria-labelledby={`inbox-tab-${filter}`}
      >
        {body}
        {searching ? <MessageResults query={query} /> : null}
      </div>
    </section>
  );
});
