import { dayLabel } from '../message/messageTime';
import { useChatTexts } from '../ChatContext';

/** The row above the first message of a day: "Today", "Yesterday" or the date. */
export function DaySeparator({ date, today }: { date: Date; today: Date }) {
  const { t, language } = useChatTexts();
  return (
    <div className="chat-day" role="separator">
      <span>{dayLabel(date, today, language, t)}</span>
    </div>
  );
}
