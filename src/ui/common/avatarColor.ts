/**
 * Spec §9: a 12-colour palette chosen by hashing the id; channels and feeds use a fixed orange-red. Every
 * colour holds white initials at 4.5:1 or more (WCAG AA for text of any size).
 */
export const AVATAR_PALETTE = [
  '#c0392b',
  '#b34700',
  '#8a6d08',
  '#1e8449',
  '#12806b',
  '#1f618d',
  '#2874a6',
  '#6c3483',
  '#884ea0',
  '#a93226',
  '#5d6d7e',
  '#117a65',
] as const;

export const CHANNEL_AVATAR_COLOR = '#c2410c';

/** A stable FNV-1a hash of the id's text, so the same id has the same colour in every tab and session. */
export function avatarColor(id: number | string): string {
  let hash = 0x811c9dc5;
  for (const ch of String(id)) {
    hash ^= ch.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return AVATAR_PALETTE[hash % AVATAR_PALETTE.length] ?? AVATAR_PALETTE[0];
}

/** Up to two initials of a name, for an avatar without a picture. */
export function initials(name: string): string {
  // Only words that start with a letter or digit: an emoji in a name ("Bokklubben 📚") is no initial.
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^[\p{L}\p{N}]/u.test(w));
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0] ?? ''];
  return letters
    .map((w) => Array.from(w ?? '')[0] ?? '')
    .join('')
    .toUpperCase();
}
