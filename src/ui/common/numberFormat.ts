/**
 * One number format per language and precision, made once and kept: building an Intl.NumberFormat costs
 * ~0.3 ms and, at times, tens of ms (issue 24's export: one built per progress render was the tab's longest
 * task), so a view that renders often never builds its own.
 */
const formats = new Map<string, Intl.NumberFormat>();

export function numberFormat(language: string, maximumFractionDigits?: number): Intl.NumberFormat {
  const key = `${language}\u0000${maximumFractionDigits ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, maximumFractionDigits === undefined ? {} : { maximumFractionDigits });
    formats.set(key, format);
  }
  return format;
}

/** A count as the language writes it: 12,345 in English, 12 345 in Swedish. */
export const formatCount = (n: number, language: string): string => numberFormat(language).format(n);
