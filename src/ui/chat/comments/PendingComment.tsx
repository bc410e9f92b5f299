import { useTranslation } from 'react-i18next';
import type { OutboxEntry } from '../../../engine/api';
import { errorText } from '../../common/errorText';
import { MessageText } from '../message/MessageText';
import { useOutboxActions } from '../message/useOutboxActions';

/** The user's comment still in the outbox: sending, or not sent with the reason and Retry / Discard. */
export function PendingComment({ entry }: { entry: OutboxEntry }) {
  const { t } = useTranslation();
  const { retry, discard, actionError } = useOutboxActions(entry.localId);
  const failed = entry.status === 'failed';
  return (
    <article className={`comment comment--own comment--${failed ? 'failed' : 'pending'}`} aria-label={t('comments.ownComment')} data-local-id={entry.localId}>
      <div className="comment__bubble">
        <span className="comment__author">{t('comments.you')}</span>
        <MessageText text={entry.text} />
        <span className="comment__meta">{failed ? t('comments.failed') : t('comments.sending')}</span>
      </div>
      {failed ? (
        <div className="comment__actions" role="group" aria-label={t('comments.failed')}>
          {entry.error ? (
            <p className="comment__error" role="alert">
              {errorText(entry.error, t)}
            </p>
          ) : null}
          {actionError ? (
            <p className="comment__error" role="alert">
              {actionError}
            </p>
          ) : null}
          <button type="button" className="mx-button mx-button--link" onClick={retry}>
            {t('comments.retrySend')}
          </button>
          <button type="button" className="mx-button mx-button--link" onClick={discard}>
            {t('comments.discard')}
          </button>
        </div>
      ) : null}
    </article>
  );
}
