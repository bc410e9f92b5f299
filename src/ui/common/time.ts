/** Spec §4 time display: "Today HH:MM", "Yesterday HH:MM", else a short date (with the year when it differs). */

export type DayKind = 'today' | 'yesterday' | 'other';

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** Epoch seconds as the server sends them (a string) to a Date. */
export const fromEpochSeconds = (value: string | number): Date => new Date(Number(value) * 1000);

export function dayKind(date: Date, now: Date): DayKind {
  const diff = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  return diff === 0 ? 'today' : diff === 1 ? 'yesterday' : 'other';
}

/** Today's local midnight: a "now" that changes once a day, so rows that only say Today or Yesterday keep their props. */
export const today = (now: Date): Date => new Date(startOfDay(now));

/**
 * The date formats of the app, one formatter per language and format (issue 11): building an
 * `Intl.DateTimeFormat` costs far more than formatting with one, and every message row formats its time.
 */
const FORMATS = {
  clock: { hour: '2-digit', minute: '2-digit', hour12: false },
  shortDate: { day: 'numeric', month: 'short' },
  shortDateYear: { day: 'numeric', month: 'short', year: 'numeric' },
  day: { weekday: 'long', day: 'numeric', month: 'long' },
  dayYear: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  full: { dateStyle: 'full', timeStyle: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateFormat = keyof typeof FORMATS;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of `format` in `language`, made once and kept. */
export function dateFormat(language: string, format: DateFormat): Intl.DateTimeFormat {
  const key = `${language}\u0000${format}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(language, FORMATS[format]);
    formatters.set(key, formatter);
  }
  return formatter;
}

export function clockTime(date: Date, language: string): string {
  return dateFormat(language, 'clock').format(date);
}

export function shortDate(date: Date, now: Date, language: string): string {
  return dateFormat(language, date.getFullYear() === now.getFullYear() ? 'shortDate' : 'shortDateYear').format(date);
}

/** Same calendar day (for day separators). */
export const sameDay = (a: Date, b: Date) => startOfDay(a) === startOfDay(b);
