import { type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CommunitiesView } from '../../engine/api';
import type { Community } from '../../protocol/entities';
import { errorText } from '../common/errorText';
import { SearchField } from '../common/SearchField';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';
import { CommunityRow } from './CommunityRow';
import './explore.css';

/** How long typing pauses before the search is sent. */
const SEARCH_DELAY_MS = 250;

/** Why a call failed, as the engine said it: put into words when shown, so it follows the language. */
type Failure = { error: unknown } | null;

/** This tab's search (the engine's search state is shared by every tab of the profile). */
interface Search {
  query: string;
  status: 'loading' | 'loaded' | 'error';
  results: readonly Community[];
  failure: Failure;
}

/**
 * Spec §2 communities explore: the user's communities and the others they may join, each a link to its
 * details (`/explore/{id}`), and a search where an empty query clears the search (spec §5). The list is
 * the engine's (cached across reloads, the same in every tab); it is fetched again whenever it comes into
 * view. A search belongs to its tab: another tab searching does not change this one's results.
 */
export function ExploreView() {
  const { t } = useTranslation();
  const engine = useEngine();
  const view = useQuery<CommunitiesView | null>((e) => e.communities(), [], null);
  const [query, setQuery] = useState('');
  const [refresh, setRefresh] = useState<{ attempt: number; failure: Failure }>({ attempt: 0, failure: null });
  const titleId = useId();
  const needle = query.trim();

  // The list is fetched again whenever it comes into view: the view opens, or a search is cleared.
  const listShown = needle === '';
  useEffect(() => {
    if (!listShown) return;
    let live = true;
    engine.refreshCommunities().then(
      () => live && setRefresh((r) => ({ ...r, failure: null })),
      (error: unknown) => live && setRefresh((r) => ({ ...r, failure: { error } })),
    );
    return () => {
      live = false;
    };
  }, [engine, listShown, refresh.attempt]);

  // Spec §5: an empty query clears the search and asks nothing.
  const [search, setSearch] = useState<Search | null>(null);
  const [searchAttempt, setSearchAttempt] = useState(0);
  useEffect(() => {
    if (!needle) {
      setSearch(null);
      return;
    }
    let live = true;
    setSearch((s) => ({ query: needle, status: 'loading', results: s?.query === needle ? s.results : [], failure: null }));
    const timer = setTimeout(() => {
      engine.searchCommunities(needle).then(
        (results) => live && setSearch({ query: needle, status: 'loaded', results, failure: null }),
        (error: unknown) => live && setSearch({ query: needle, status: 'error', results: [], failure: { error } }),
      );
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [engine, needle, searchAttempt]);

  const retry = () => setRefresh((r) => ({ attempt: r.attempt + 1, failure: null }));
  const refreshError = refresh.failure ? errorText(refresh.failure.error, t) : null;
  let body;
  if (needle) {
    if (!search || (search.status === 'loading' && search.results.length === 0)) {
      body = <State busy>{t('explore.searching')}</State>;
    } else if (search.status === 'error') {
      body = (
        <State alert>
          <p>{search.failure ? errorText(search.failure.error, t) : null}</p>
          <button type="button" className="mx-button" onClick={() => setSearchAttempt((n) => n + 1)}>
            {t('explore.retry')}
          </button>
        </State>
      );
    } else if (search.results.length === 0) {
      body = <State>{t('explore.noneFound')}</State>;
    } else {
      body = <Section title={t('explore.results')} communities={search.results} />;
    }
  } else if (view === null || (!view.loaded && refreshError === null)) {
    body = <State busy>{t('explore.loading')}</State>;
  } else if (!view.loaded && refreshError !== null) {
    body = (
      <State alert>
        <p>{refreshError}</p>
        <button type="button" className="mx-button" onClick={retry}>
          {t('explore.retry')}
        </button>
      </State>
    );
  } else if (view.communities.length === 0) {
    body = <State>{t('explore.none')}</State>;
  } else {
    const others = view.communities.filter((c) => !c.is_member);
    body = (
      <>
        {view.joined.length > 0 ? <Section title={t('explore.yours')} communities={view.joined} /> : null}
        {others.length > 0 ? <Section title={t('explore.discover')} communities={others} /> : null}
      </>
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
      <div className="explore__body">
        {/* A cached list shows while a refresh fails; the failure is said above it, with a retry. */}
        {!needle && view?.loaded && refreshError !== null ? (
          <p className="explore__notice" role="alert">
            {refreshError}{' '}
            <button type="button" className="mx-button mx-button--link" onClick={retry}>
              {t('explore.retry')}
            </button>
          </p>
        ) : null}
        {body}
      </div>
    </section>
  );
}

function Section({ title, communities }: { title: string; communities: readonly Community[] }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="explore__section">
      <h2 id={id} className="explore__section-title">
        {title}
      </h2>
      <ul className="explore__list">
        {communities.map((community) => (
          <li key={community.id}>
            <CommunityRow community={community} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function State({ children, busy = false, alert = false }: { children: ReactNode; busy?: boolean; alert?: boolean }) {
  return (
    <div className="explore__state" role={alert ? 'alert' : 'status'} aria-busy={busy || undefined}>
      {children}
    </div>
  );
}
