import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageSearchHit, MessageSearchView } from '../../engine/api';
import { useNow } from '../hooks/useNow';
import { useQuery } from '../hooks/useQuery';
import { hitSender, hitTarget, MESSAGE_PARAM } from './messageHit';
import { rowTime } from './preview';
import { useDebounced } from './useDebounced';
import { RowBoundary } from '../common/RowBoundary';

/** Typing pauses this long before the query is searched (issue 13). */
export const MESSAGE_SEARCH_DEBOUNCE_MS = 150;

/**
 * The "Messages" section under the chats a search matched (issue 13): the engine's full-text hits of what
 * this device holds, each a link that opens its chat at the message (`?message=`, ChatView). While the
 * engine is still building its index, a quiet line says so.
 */
export function MessageResults({ query }: { query: string }) {
  const { t } = useTranslation();
  const now = useNow();
  const headingId = useId();
  const searched = useDebounced(query.trim(), MESSAGE_SEARCH_DEBOUNCE_MS);
  const view = useQuery<MessageSearchView | null>((e) => e.searchMessages(searched), [searched], null);
  const current = view !== null && view.query === searched ? view : null;
  return (
    <section className="inbox-hits" aria-labelledby={headingId} data-testid="message-results">
      <h2 className="inbox-hits__title" id={headingId}>
        {t('inbox.messageSearch.title')}
      </h2>
      {current === null ? (
        <p className="inbox-hits__state" role="status">
          {t('inbox.messageSearch.searching')}
        </p>
      ) : (
        <>
          {current.hits.length > 0 ? (
            <ul className="inbox-hits__list">
              {current.hits.map((hit) => (
                <li key={`${hit.kind}-${hit.id}`}>
                  <RowBoundary kind="result" resetKey={hit}>
                    <HitRow hit={hit} now={now} />
                  </RowBoundary>
                </li>
              ))}
            </ul>
          ) : (
            <p className="inbox-hits__state">{t('inbox.messageSearch.none')}</p>
          )}
          {!current.complete ? (
            <p className="inbox-hits__indexing" role="status">
              {t('inbox.messageSearch.indexing')}
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

declare module '@tanstack/history' {
  interface HistoryState {
    /** Set by a search hit's link (below): each opening from a hit is a history entry of its own. */
    messageOpening?: number;
  }
}

/** Counts the openings from a hit, so that each makes a history entry of its own (see ChatView). */
let openings = 0;

function HitRow({ hit, now }: { hit: MessageSearchHit; now: Date }) {
  const { t, i18n } = useTranslation();
  const target = hitTarget(hit);
  const time = rowTime(Math.floor(hit.createdAt / 1000), now, i18n.language, t);
  const sender = hitSender(hit, t('chat.you'));
  const kind = hit.kind === 'post' ? t('inbox.messageSearch.post') : hit.kind === 'comment' ? t('inbox.messageSearch.comment') : null;
  const body = (
    <>
      <span className="inbox-hit__top">
        <span className="inbox-hit__title">{hit.title || t('inbox.unnamed')}</span>
        <span className="visually-hidden">, </span>
        <span className="inbox-hit__time">{time}</span>
      </span>
      <span className="inbox-hit__bottom">
        {kind ? <span className="inbox-hit__kind">{kind} · </span> : null}
        {sender ? <span className="inbox-hit__sender">{sender}: </span> : null}
        <span className="inbox-hit__snippet">
          {hit.snippet.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
        </span>
      </span>
    </>
  );
  if (!target) return <span className="inbox-hit">{body}</span>;
  return (
    <Link
      to="/inbox/$conversationId"
      params={{ conversationId: String(target.conversationId) }}
      search={{ [MESSAGE_PARAM]: target.messageId }}
      // A state of its own each time: the same hit chosen again is a new visit, which opens the chat there again.
      state={() => ({ messageOpening: ++openings })}
      className="inbox-hit"
      data-message-id={target.messageId}
    >
      {body}
    </Link>
  );
}
