import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isEngineError } from '../../engine/api';
import type { Community } from '../../protocol/entities';
import { Avatar } from '../common/Avatar';
import { SearchField } from '../common/SearchField';
import { useEngine } from '../hooks/EngineContext';
import './explore.css';

type Load =
  | { status: 'loading' }
  | { status: 'loaded'; communities: Community[] }
  | { status: 'error'; message: string };

/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 250;

/**
 * Spec §2 communities explore: the list, and a search where an empty query clears the search (spec §5).
 * Community details come with the communities issue.
 */
export function ExploreView() {
  const { t } = useTranslation();
  const engine = useEngine();
  const [query, setQuery] = useState('');
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const titleId = useId();
  const needle = query.trim();

  useEffect(() => {
    let live = true;
    setLoad({ status: 'loading' });
    const run = () =>
      (needle
        ? engine.call('searchCommunities', needle).then((a) => a.search_results)
        : engine.call('getCommunities', { onlyJoined: false }).then((a) => a.communities)
      ).then(
        (communities) => live && setLoad({ status: 'loaded', communities }),
        (error: unknown) =>
          live && setLoad({ status: 'error', message: isEngineError(error) ? error.message : t('common.unexpectedError') }),
      );
    const timer = setTimeout(() => void run(), needle ? SEARCH_DELAY_MS : 0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [engine, needle, attempt, t]);

  let body;
  if (load.status === 'loading') {
    body = (
      <p className="explore__state" role="status">
        {t('common.loading')}
      </p>
    );
  } else if (load.status === 'error') {
    body = (
      <div className="explore__state" role="alert">
        <p>{load.message}</p>
        <button type="button" className="mx-button" onClick={() => setAttempt((n) => n + 1)}>
          {t('common.retry')}
        </button>
      </div>
    );
  } else if (load.communities.length === 0) {
    body = <p className="explore__state">{needle ? t('explore.noneFound') : t('explore.none')}</p>;
  } else {
    body = (
      <ul className="explore__list" aria-labelledby={titleId}>
        {load.communities.map((community) => (
          <li key={community.id} className="community-row">
            <Avatar id={community.id} name={community.name} imageUrl={community.avatar_thumbnail_url || null} size={48} />
            <span className="community-row__main">
              <span className="community-row__name">{community.name}</span>
              <span className="community-row__meta">
                {t('explore.members', { count: community.members_count })}
                {community.is_member ? ` · ${t('explore.joined')}` : ''}
                {community.is_private ? ` · ${t('explore.private')}` : ''}
              </span>
              {community.description ? <span className="community-row__description">{community.description}</span> : null}
            </span>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className="explore" aria-labelledby={titleId}>
      <header className="mx-panel-header">
        <h1 className="mx-panel-header__title" id={titleId}>
          {t('explore.title')}
        </h1>
      </header>
      <SearchField label={t('explore.search')} value={query} onChange={setQuery} />
      <div className="explore__body">{body}</div>
    </section>
  );
}
