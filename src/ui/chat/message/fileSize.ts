import { numberFormat } from '../../common/numberFormat';

/** Spec §9 "File size units: B to GB": 1,536 → "1.5 KB". Units step by 1,024. */
const UNITS = ['B', 'KB', 'MB', 'GB'] as const;

export function formatFileSize(bytes: number, language: string): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 100 ? 0 : 1;
  const number = numberFormat(language, digits).format(value);
  return `${number} ${UNITS[unit]}`;
}
