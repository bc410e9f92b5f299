import { type FormEvent, type KeyboardEvent, type Ref, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppSettings } from '../../../engine/api';
import type { Comment } from '../../../protocol/entities';
import { errorText } from '../../common/errorText';
import { SendIcon } from '../../common/icons';
import { useEngine } from '../../hooks/EngineContext';
import { useQuery } from '../../hooks/useQuery';
import { enterAction } from '../composer/sendRules';

/**
 * The thread's input (the chat composer's Enter rules, spec §5): a comment on the post, or a reply to
 * `replyTo`. It empties as soon as the comment is handed to the engine (a second Enter cannot send it
 * twice); a refused one comes back with the reason, ahead of anything typed since. Blank text (spaces and
 * line breaks only) is never sent: Send is disabled and Enter does nothing (issue 23); the engine would
 * refuse it with "Invalid message provided" (spec §5), which only scripts meet.
 */
export function CommentComposer(props: {
  ref: Ref<HTMLTextAreaElement>;
  channelId: number;
  postId: number;
  replyTo: Comment | null;
  /** The replied-to comment's author; null when it is the user's own comment. */
  replyName: string | null;
  onCancelReply: () => void;
  onSent: () => void;
}) {
  const { ref, channelId, postId, replyTo, replyName, onCancelReply, onSent } = props;
  const { t } = useTranslation();
  const engine = useEngine();
  const settings = useQuery<AppSettings | null>((e) => e.settings(), [], null);
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);

  const blank = text.trim() === '';
  const send = () => {
    if (blank) return;
    setFailure(null);
    const sent = text;
    setText('');
    engine.addComment(channelId, postId, sent, replyTo?.comment_id ?? null).then(
      () => onSent(),
      (error: unknown) => {
        setFailure({ error });
        setText((typed) => (typed === '' ? sent : `${sent}\n${typed}`));
      },
    );
  };
  const label = !replyTo
    ? t('comments.input')
    : replyName === null
      ? t('comments.replyInputOwn')
      : t('comments.replyInput', { name: replyName });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Escape' && replyTo) {
      // Escape ends the reply first; the next one closes the thread.
      event.preventDefault();
      event.stopPropagation();
      onCancelReply();
      return;
    }
    const action = enterAction(
      { key: event.key, shiftKey: event.shiftKey, ctrlKey: event.ctrlKey, metaKey: event.metaKey, isComposing: event.nativeEvent.isComposing },
      settings?.enterToSend ?? true,
    );
    if (action === 'send') {
      event.preventDefault();
      send();
    }
  };

  return (
    <form className="thread__composer" onSubmit={onSubmit}>
      {replyTo ? (
        <div className="thread__replying">
          <span>{replyName === null ? t('comments.replyingToOwn') : t('comments.replyingTo', { name: replyName })}</span>
          <button type="button" className="mx-icon-button" onClick={onCancelReply} aria-label={t('comments.cancelReply')}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ) : null}
      {failure ? (
        <p className="comment__error" role="alert">
          {errorText(failure.error, t)}
        </p>
      ) : null}
      <div className="thread__input-row">
        <textarea
          ref={ref}
          className="thread__input"
          rows={1}
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
          aria-label={label}
          placeholder={label}
        />
        <button type="submit" className="mx-button mx-button--primary" aria-label={t('comments.send')} disabled={blank}>
          <SendIcon />
        </button>
      </div>
    </form>
  );
}
