import type { Message } from '../../../protocol/entities';
import { fromEpochSeconds } from '../../common/time';
import { useChatRow, useChatTexts } from '../ChatContext';
import { eventText } from './eventText';
import { fullTime, messageTime } from './messageTime';

/** A last word up to this long stays on the time's line; a longer one (a link) may wrap on its own. */
const GLUED_WORD = 24;

/**
 * A system message (spec §3 event attachments): one centred line of quiet text, whatever its length. A
 * long one wraps into balanced lines instead of growing a box, and its time always follows the last word,
 * where a short one has it (the two never part, so the time is never a line of its own).
 */
export function EventRow({ message, today }: { message: Message; today: Date }) {
  const { t, language } = useChatTexts();
  const { conversation, selfId } = useChatRow();
  const date = fromEpochSeconds(message.created_at);
  const text = eventText(message, conversation, selfId, t);
  const split = text.search(/\S+$/);
  const glue = split >= 0 && text.length - split <= GLUED_WORD ? split : text.length;
  return (
    <div className="msg-event" data-message-id={message.id}>
      <p className="msg-event__line">
        <span className="msg-event__text">{text.slice(0, glue)}</span>
        <span className="msg-event__end">
          {text.slice(glue)}{' '}
          <time className="msg-event__time" dateTime={date.toISOString()} title={fullTime(date, language)}>
            {messageTime(date, today, language, t)}
          </time>
        </span>
      </p>
    </div>
  );
}
