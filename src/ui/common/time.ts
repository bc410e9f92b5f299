/** Spec §4 time display: "Today HH:MM", "Yesterday HH:MM", else a short date (with the year when it differs). */

export type DayKind = 'today' | 'yesterday' | 'other';

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** Epoch seconds as the server sends them (a string) to a Date. */
export const fromEpochSeconds = (value: string | number): Date => new Date(Number(value) * 1000);

export function dayKind(date: Date, now: Date): DayKind {
  const diff = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  return diff === 0 ? 'today' : diff === 1 ? 'yesterday' : 'other';
}

export function clockTime(date: Date, language: string): string {
  return new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit', hour12: false }).format(date);
}

export function shortDate(date: Date, now: Date, language: string): string {
  const sameYear = date.getFullYear() === now.getFullYear();
  return new Intl.DateTimeFormat(language, {
    day: 'numeric',
    month: 'short',
    ...(sameYear ? {} : { year: 'numeric' }),
  }).format(date);
}

/** Same calendar day (for day separators). */
export const sameDay = (a: Date, b: Date) => startOfDay(a) === startOfDay(b);
