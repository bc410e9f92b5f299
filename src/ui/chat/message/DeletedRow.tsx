import { useEffect } from 'react';
import type { Message } from '../../../protocol/entities';
import { fromEpochSeconds } from '../../common/time';
import { useChatRow, useChatTexts } from '../ChatContext';
import { memberName } from './eventText';
import { fullTime, messageTime } from './messageTime';

/**
 * A message deleted for everybody (docs/ui.md "Deleted messages"): a quiet italic bubble in the sender's
 * place, "This message was deleted" and its time, the sender's name over it where a message's would be.
 * Nothing else is left of it, so it has no actions, reactions, receipt or quote.
 */
export function DeletedRow({ message, runStart, today }: { message: Message; runStart: boolean; today: Date }) {
  const { t, language } = useChatTexts();
  const { conversation, selfId, messageDeleted } = useChatRow();
  // A reply to it or an edit of it that was under way here ends with it.
  useEffect(() => messageDeleted(message.id), [messageDeleted, message.id]);
  const date = fromEpochSeconds(message.created_at);
  const own = message.user_id === selfId;
  const sender = memberName(conversation, message.user_id) ?? t('chat.someone');
  return (
    <article
      className={`msg msg-deleted ${own ? 'msg-own' : 'msg-other'}`}
      data-message-id={message.id}
      aria-label={own ? t('chat.ownMessage') : t('chat.messageFrom', { name: sender })}
    >
      <div className="msg-bubble">
        {!own && conversation.is_group && runStart ? <span className="msg-sender">{sender}</span> : null}
        <p className="msg-deleted__line">
          <svg className="msg-deleted__icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
            <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path d="M3.6 12.4 12.4 3.6" stroke="currentColor" strokeWidth="1.5" />
          </svg>
          <span className="msg-deleted__text">{t('chat.deletedMessage')}</span>
          <time className="msg-deleted__time" dateTime={date.toISOString()} title={fullTime(date, language)}>
            {messageTime(date, today, language, t)}
          </time>
        </p>
      </div>
    </article>
  );
}
