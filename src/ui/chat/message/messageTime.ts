import type { TFunction } from 'i18next';
import { clockTime, dayKind, shortDate } from '../../common/time';

/** Spec §4: "Today HH:MM", "Yesterday HH:MM", otherwise a short date (with the year when it differs). */
export function messageTime(date: Date, now: Date, language: string, t: TFunction): string {
  const time = clockTime(date, language);
  switch (dayKind(date, now)) {
    case 'today':
      return t('chat.time.today', { time });
    case 'yesterday':
      return t('chat.time.yesterday', { time });
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
      return new Intl.DateTimeFormat(language, {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        ...(date.getFullYear() === now.getFullYear() ? {} : { year: 'numeric' }),
      }).format(date);
  }
}

/** The full date and time, for the time element's tooltip and machine-readable value. */
export function fullTime(date: Date, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'short' }).format(date);
}
