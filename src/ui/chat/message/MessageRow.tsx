import { memo } from 'react';
import type { Message } from '../../../protocol/entities';
import { actionsLabel } from '../actions/actionsLabel';
import { MessageActions } from '../actions/MessageActions';
import { ReactionBar } from '../actions/ReactionBar';
import { useChatRow, useChatTexts } from '../ChatContext';
import { CommentsButton } from '../comments/CommentsButton';
import { isCommunityChat } from '../composer/sendRules';
import { AttachmentView } from './AttachmentView';
import { DeletedRow } from './DeletedRow';
import { EventRow } from './EventRow';
import { isEventMessage, memberName } from './eventText';
import { MessageText } from './MessageText';
import { fullTime, messageTime } from './messageTime';
import { QuotedMessage } from './QuotedMessage';
import { ReceiptMark } from './ReceiptMark';
import type { ReceiptStatus } from './receiptStatus';
import { fromEpochSeconds } from '../../common/time';

/**
 * Only what the row shows, each a value that stays the same while the row does not change (issue 11): a
 * new message elsewhere in the chat renders no other row.
 */
export interface MessageRowProps {
  message: Message;
  /** A run of this sender's messages starts here (the message above is someone else's, or an event): the name shows in groups. */
  runStart: boolean;
  quoted: Message | undefined;
  receipt: ReceiptStatus | null;
  /** Today's midnight (changes once a day): Today/Yesterday are decided against it. */
  today: Date;
}

/**
 * One message: a system line for events, the quiet placeholder for one deleted for everybody, else a bubble
 * with sender, quote, text, attachment and meta.
 */
export const MessageRow = memo(function MessageRow({ message, runStart, quoted, receipt, today }: MessageRowProps) {
  if (isEventMessage(message)) return <EventRow message={message} today={today} />;
  if (message.deleted) return <DeletedRow message={message} runStart={runStart} today={today} />;
  return <Bubble message={message} runStart={runStart} quoted={quoted} receipt={receipt} today={today} />;
});

/** An ordinary message: a bubble with sender, quote, text, attachment and meta. */
function Bubble({ message, runStart, quoted, receipt, today }: MessageRowProps) {
  if (import.meta.env.VITE_BENCH) (globalThis as { benchRowRender?: () => void }).benchRowRender?.(); // `npm run bench` only
  const { t, language } = useChatTexts();
  const { conversation, selfId } = useChatRow();
  const date = fromEpochSeconds(message.created_at);
  const own = message.user_id === selfId;
  const showSender = !own && conversation.is_group && runStart;
  const sender = memberName(conversation, message.user_id) ?? t('chat.someone');
  const edited = message.edited_at > 0;
  const time = messageTime(date, today, language, t);
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
          <time dateTime={date.toISOString()} title={fullTime(date, language)}>
            {time}
          </time>
          {own && receipt ? <ReceiptMark status={receipt} /> : null}
        </span>
      </div>
      <ReactionBar message={message} />
      {isCommunityChat(conversation) && !conversation.disable_comments ? <CommentsButton post={message} /> : null}
      <MessageActions message={message} label={actionsLabel(message, own ? t('chat.you') : sender, time, t)} />
    </article>
  );
}
