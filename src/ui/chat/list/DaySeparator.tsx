import { useTranslation } from 'react-i18next';
import { dayLabel } from '../message/messageTime';

/** The row above the first message of a day: "Today", "Yesterday" or the date. */
export function DaySeparator({ date, today }: { date: Date; today: Date }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="chat-day" role="separator">
      <span>{dayLabel(date, today, i18n.language, t)}</span>
    </div>
  );
}
