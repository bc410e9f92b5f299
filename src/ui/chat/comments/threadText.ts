import type { TFunction } from 'i18next';

/** The comments control's accessible name (issue 8): "3 comments", "1 comment", or "Comment" when there are none. */
export function commentsLabel(count: number, t: TFunction): string {
  return count > 0 ? t('comments.count', { count }) : t('comments.none');
}

/** A post's text shortened for the thread's name: the first line, at most `max` characters. */
export function excerpt(text: string, max = 60): string {
  const line = text.trim().split('\n')[0] ?? '';
  const points = Array.from(line);
  return points.length <= max ? line : `${points.slice(0, max).join('')}…`;
}
