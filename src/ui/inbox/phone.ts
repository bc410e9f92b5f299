import type { Country } from '../../protocol/entities';

/** Separators people type in a number; they carry no digits. */
const SEPARATORS = /[\s\-().]/g;

/**
 * Spec §5 member rows: a phone must match the user's country pattern, national first, else the
 * international one; "00" is read as "+". Returns the number to send (the server reads a national
 * number in the caller's own country), or null when it matches neither.
 */
export function memberPhone(raw: string, country: Pick<Country, 'validation' | 'validation_abroad'> | undefined): string | null {
  const compact = raw.replace(SEPARATORS, '').replace(/^00/, '+');
  if (!compact || !country) return null;
  try {
    if (new RegExp(country.validation).test(compact)) return compact;
    if (new RegExp(country.validation_abroad).test(compact)) return compact;
  } catch {
    return null;
  }
  return null;
}

export const NAME_MIN = 2;
/** design.md §4: member and group names are 2 to 50 characters inclusive. */
export const NAME_MAX = 50;

export type NameProblem = 'empty' | 'short' | 'long' | null;

export function nameProblem(raw: string): NameProblem {
  const name = raw.trim();
  if (!name) return 'empty';
  if (name.length < NAME_MIN) return 'short';
  if (name.length > NAME_MAX) return 'long';
  return null;
}
