import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Message } from '../../../protocol/entities';
import { MessageActions } from '../actions/MessageActions';
import { ReactionBar } from '../actions/ReactionBar';
import { useChatUi } from '../ChatContext';
import { CommentsButton } from '../comments/CommentsButton';
import { isCommunityChat } from '../composer/sendRules';
import { AttachmentView } from './AttachmentView';
import { EventRow } from './EventRow';
import { isEventMessage, memberName } from './eventText';
import { MessageText } from './MessageText';
import { fullTime, messageTime } from './messageTime';
import { QuotedMessage } from './QuotedMessage';
import { ReceiptMark } from './ReceiptMark';
import type { ReceiptStatus } from './receiptStatus';
import { fromEpochSeconds } from '../../common/time';

export interface MessageRowProps {
  message: Message;
  /** The message above, to show the sender's name only where a run of their messages starts. */
  previous: Message | null;
  quoted: Message | undefined;
  receipt: ReceiptStatus | null;
  /** "now" of the list's render: Today/Yesterday are decided against it. */
  now: Date;
}

/** One message: a system line for events, else a bubble with sender, quote, text, attachment and meta. */
export const MessageRow = memo(function MessageRow({ message, previous, quoted, receipt, now }: MessageRowProps) {
  if (isEventMessage(message)) return <EventRow message={message} now={now} />;
  return <Bubble message={message} previous={previous} quoted={quoted} receipt={receipt} now={now} />;
});

/** An ordinary message: a bubble with sender, quote, text, attachment and meta. */
function Bubble({ message, previous, quoted, receipt, now }: MessageRowProps) {
  const { t, i18n } = useTranslation();
  const { conversation, selfId } = useChatUi();
  const date = fromEpochSeconds(message.created_at);
  const own = message.user_id === selfId;
  const showSender =
    !own &&
    conversation.is_group &&
    (previous === null || previous.user_id !== message.user_id || isEventMessage(previous));
  const sender = memberName(conversation, message.user_id) ?? t('chat.someone');
  const edited = message.edited_at > 0;
  return (
    <article
      className={`msg ${own ? 'msg-own' : 'msg-other'}`}
      data-message-id={message.id}
      aria-label={own ? t('chat.ownMessage') : t('chat.messageFrom', { name: sender })}
    >
      <div className="msg-bubble">
        {showSender ? <span className="msg-sender">{sender}</span> : null}
        {message.quoted !== null ? <QuotedMessage quotedId={message.quoted} quoted={quoted} /> : null}
        {message.attachment ? <AttachmentView message={message} attachment={message.attachment} /> : null}
        {message.message ? <MessageText text={message.message} /> : null}
        <span className="msg-meta">
          {edited ? <span className="msg-edited">{t('chat.edited')}</span> : null}
          <time dateTime={date.toISOString()} title={fullTime(date, i18n.language)}>
            {messageTime(date, now, i18n.language, t)}
          </time>
          {own && receipt ? <ReceiptMark status={receipt} /> : null}
        </span>
      </div>
      <ReactionBar message={message} />
      {isCommunityChat(conversation) && !conversation.disable_comments ? <CommentsButton post={message} /> : null}
      <MessageActions message={message} />
    </article>
  );
}
