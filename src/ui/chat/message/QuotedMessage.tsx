import type { Message } from '../../../protocol/entities';
import { useChatRow, useChatTexts } from '../ChatContext';
import { memberName } from './eventText';

/**
 * The quote above a reply: who wrote the original and its text (or that it was deleted for everybody); a
 * click scrolls to the original.
 */
export function QuotedMessage({ quotedId, quoted }: { quotedId: number; quoted: Message | undefined }) {
  const { t } = useChatTexts();
  const { conversation, selfId, scrollToMessage } = useChatRow();
  const author = quoted
    ? quoted.user_id === selfId
      ? t('chat.you')
      : (memberName(conversation, quoted.user_id) ?? t('chat.someone'))
    : null;
  const text = quoted
    ? quoted.deleted
      ? t('chat.deletedMessage')
      : quoted.message || (quoted.attachment ? attachmentWord(quoted, t) : '')
    : t('chat.quote.notLoaded');
  return (
    <button type="button" className="msg-quote" onClick={() => scrollToMessage(quotedId)} title={t('chat.quote.goTo')}>
      <span className="visually-hidden">{t('chat.quote.replyTo')} </span>
      {author ? <span className="msg-quote-author">{author} </span> : null}
      <span className={quoted?.deleted ? 'msg-quote-text msg-quote-deleted' : 'msg-quote-text'}>{text}</span>
    </button>
  );
}

function attachmentWord(message: Message, t: (key: string) => string): string {
  switch (message.attachment?.type) {
    case 'image':
      return t('chat.attachment.image');
    case 'video':
      return t('chat.attachment.video');
    case 'audio':
      return t('chat.attachment.audio');
    case 'sticker':
      return t('chat.attachment.sticker');
    default:
      return t('chat.attachment.file');
  }
}
