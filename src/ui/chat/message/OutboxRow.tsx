import type { OutboxEntry } from '../../../engine/api';
import { errorText } from '../../common/errorText';
import { MessageText } from './MessageText';
import { useOutboxActions } from './useOutboxActions';
import { useChatRow, useChatTexts } from '../ChatContext';
import { sendBlock } from '../composer/sendRules';
import { failsForGood } from './failsForGood';

/**
 * A send the server has not stored yet, at the bottom as an own message: pending with a clock (and the
 * upload's progress), or failed with the error and Retry / Discard (Edit / Discard when a retry cannot help).
 */
export function OutboxRow({ entry }: { entry: OutboxEntry }) {
  const { t } = useChatTexts();
  const { retry, discard, actionError } = useOutboxActions(entry.localId);
  const { takeBack, conversation } = useChatRow();
  const failed = entry.status === 'failed';
  // A refusal that a retry cannot change (docs/ui.md "Sending"): the text goes back to the input to be changed,
  // where the chat has one (not in a demo chat, say: there only Discard).
  const final = failed && failsForGood(entry.error);
  const editable = final && entry.text !== '' && sendBlock(conversation, false) === null;
  const edit = () => {
    if (takeBack(entry.text)) discard();
  };
  const progress = entry.attachment ? Math.round(entry.attachment.progress * 100) : null;
  return (
    <article
      className={`msg msg-own msg-outbox ${failed ? 'msg-failed' : 'msg-pending'}`}
      data-local-id={entry.localId}
      aria-label={failed ? t('chat.outbox.failedMessage') : t('chat.outbox.pendingMessage')}
    >
      <div className="msg-bubble">
        {entry.attachment ? (
          <div className="att-upload">
            <span className="att-file-name">{entry.attachment.name}</span>
            {!failed && progress !== null && progress < 100 ? (
              <progress
                max={100}
                value={progress}
                aria-label={t('chat.outbox.uploading', { name: entry.attachment.name })}
              />
            ) : null}
          </div>
        ) : null}
        {entry.text ? <MessageText text={entry.text} /> : null}
        <span className="msg-meta">
          {failed ? (
            <span className="msg-failed-label">{t('chat.outbox.failed')}</span>
          ) : (
            <span className="msg-clock" title={t('chat.outbox.sending')}>
              <span aria-hidden="true">🕓</span>
              <span className="visually-hidden">{t('chat.outbox.sending')}</span>
            </span>
          )}
        </span>
      </div>
      {failed ? (
        <div className="msg-failed-actions" role="group" aria-label={t('chat.outbox.failedMessage')}>
          {entry.error ? (
            // Spec §8: the server's error, or 'Failed to send message' / 'Failed to upload image', translated.
            <p className="msg-error" role="alert">
              {errorText(entry.error, t)}
            </p>
          ) : null}
          {actionError ? (
            <p className="msg-error" role="alert">
              {actionError}
            </p>
          ) : null}
          {final ? (
            editable ? (
              <button type="button" className="mx-button msg-failed-button" onClick={edit}>
                {t('chat.outbox.edit')}
              </button>
            ) : null
          ) : (
            <button type="button" className="mx-button msg-failed-button" onClick={retry}>
              {t('chat.outbox.retry')}
            </button>
          )}
          <button type="button" className="mx-button msg-failed-button" onClick={discard}>
            {t('chat.outbox.discard')}
          </button>
        </div>
      ) : null}
    </article>
  );
}
