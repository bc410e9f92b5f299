import { useTranslation } from 'react-i18next';
import { errorText } from '../../common/errorText';
import { asSentence } from '../sentence';

/** Above the list: an older page is loading, or the last one failed, with a retry. */
export function OlderPagesStatus({ loading, error, onRetry }: { loading: boolean; error: unknown; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      {loading ? (
        <p className="chat-list-loading" role="status">
          {t('chat.list.loadingOlder')}
        </p>
      ) : null}
      {error ? (
        // Spec §8: 'Failed to load conversation messages', and why (the server's words or the call's text).
        <div className="chat-list-error" role="alert" data-chat-error="older">
          <p className="chat-list-error__text">
            <strong>{asSentence(t('chat.list.olderFailed'))}</strong> <span>{asSentence(errorText(error, t))}</span>
          </p>
          <button type="button" className="mx-button" onClick={onRetry}>
            {t('chat.list.retry')}
          </button>
        </div>
      ) : null}
    </>
  );
}
