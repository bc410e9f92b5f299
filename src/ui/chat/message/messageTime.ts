import type { TFunction } from 'i18next';
import { clockTime, dateFormat, dayKind, shortDate } from '../../common/time';

/** Spec §4: "Today HH:MM", "Yesterday HH:MM", otherwise a short date (with the year when it differs). */
export function messageTime(date: Date, now: Date, language: string, t: TFunction): string {
  switch (dayKind(date, now)) {
    case 'today':
      return t('chat.time.today', { time: clockTime(date, language) });
    case 'yesterday':
      return t('chat.time.yesterday', { time: clockTime(date, language) });
    default:
      return shortDate(date, now, language);
  }
}

/** A day separator: "Today", "Yesterday", else the weekday and date (with the year when it differs). */
export function dayLabel(date: Date, now: Date, language: string, t: TFunction): string {
  switch (dayKind(date, now)) {
    case 'today':
      return t('chat.day.today');
    case 'yesterday':
      return t('chat.day.yesterday');
    default:
      return dateFormat(language, date.getFullYear() === now.getFullYear() ? 'day' : 'dayYear').format(date);
  }
}

/** The full date and time, for the time element's tooltip and machine-readable value. */
export function fullTime(date: Date, language: string): string {
  return dateFormat(language, 'full').format(date);
}
