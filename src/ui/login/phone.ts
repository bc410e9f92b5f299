import type { Country } from '../../protocol/entities';

/**
 * Phone numbers on the login screen (spec §5): what the user typed, in whatever form people write numbers,
 * becomes the +country-code form and must match the country's `validation_abroad` pattern. Pure, so every
 * accepted and refused form is unit-tested.
 */

export type PhoneErrorKey = 'pleaseSelectCountry' | 'invalidCountrySelection' | 'pleaseEnterValidPhone';

export type PhoneCheck =
  | { ok: true; phone: string; country: Country }
  | { ok: false; error: PhoneErrorKey; example?: string };

/** A national number people recognise per country, shown in the error and as the field's placeholder. */
const EXAMPLE_NATIONAL: Readonly<Record<string, string>> = {
  SE: '0701234561',
  ID: '081234567890',
};

/**
 * The heuristic minimum of national digits (8, 9 or 10): a number that starts with the dial code and has at
 * least this many digits after it was typed internationally without its plus ("46701234561"); a shorter
 * one is a national number that happens to begin with those digits. Longer dial codes leave fewer digits.
 */
export function minNationalDigits(cc: string): 8 | 9 | 10 {
  if (cc.length <= 1) return 10;
  if (cc.length === 2) return 9;
  return 8;
}

function compiled(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
}

/** True when the country can be used to sign in: it has a dial code and a usable international pattern. */
export function isSupportedCountry(country: Country): boolean {
  return /^\d{1,3}$/.test(country.cc) && compiled(country.validation_abroad) !== null;
}

/**
 * The +cc form of what the user typed for `country`, or null when it cannot be a phone number at all.
 * Accepts spaces, dashes, dots and brackets; "00" and "+" as the international prefix; a national number
 * with or without its trunk "0"; and the international number without its plus.
 */
export function normalizePhone(raw: string, country: Pick<Country, 'cc'>): string | null {
  const compact = raw.trim().replace(/[\s().\-/]/g, '');
  if (!/^\+?\d+$/.test(compact)) return null;
  if (compact.startsWith('+')) return compact;
  if (compact.startsWith('00')) return `+${compact.slice(2)}`;
  const { cc } = country;
  if (compact.startsWith(cc) && compact.length - cc.length >= minNationalDigits(cc)) return `+${compact}`;
  return `+${cc}${compact.replace(/^0/, '')}`;
}

/** The display form of a +cc number through the country's `format_international` pair, else as it is. */
export function formatPhone(phone: string, country: Pick<Country, 'format_international'> | undefined): string {
  const pattern = country ? compiled(country.format_international[0]) : null;
  if (!country || !pattern || !pattern.test(phone)) return phone;
  return phone.replace(pattern, country.format_international[1]);
}

/** The example of the error text "like {{phone}}", in the country's international display form. */
export function examplePhone(country: Country): string {
  const national = EXAMPLE_NATIONAL[country.code];
  if (!national) return `+${country.cc}…`;
  return formatPhone(normalizePhone(national, country) ?? national, country);
}

/** The national example as a placeholder for the number field. */
export function placeholderPhone(country: Country | undefined): string {
  return (country && EXAMPLE_NATIONAL[country.code]) ?? '';
}

/**
 * The supported country a number typed internationally ("+46…", "0046…") belongs to: the one whose pattern it
 * matches, else the one with the longest dial code it starts with (so the user sees the country while still
 * typing). Null for a national number, or a prefix no supported country has.
 */
export function countryForNumber(raw: string, countries: readonly Country[]): Country | null {
  if (!/^\s*(\+|00)/.test(raw)) return null;
  const phone = normalizePhone(raw, { cc: '' });
  if (phone === null) return null;
  const supported = countries.filter(isSupportedCountry);
  const matching = supported.find((c) => compiled(c.validation_abroad)?.test(phone));
  if (matching) return matching;
  const byPrefix = supported
    .filter((c) => phone.startsWith(`+${c.cc}`))
    .sort((a, b) => b.cc.length - a.cc.length);
  return byPrefix[0] ?? null;
}

/**
 * Checks the phone step (spec §5): a country must be chosen and supported, and the number, normalised,
 * must match its pattern. A number typed with a supported country's plus (or 00) prefix is taken for that
 * country, chosen or not, since the prefix says unambiguously which one the user means.
 */
export function checkPhone(raw: string, selectedCode: string | null, countries: readonly Country[]): PhoneCheck {
  const typed = countryForNumber(raw, countries);
  if (!selectedCode) {
    if (!typed) return { ok: false, error: 'pleaseSelectCountry' };
    return checkPhone(raw, typed.code, countries);
  }
  const country = countries.find((c) => c.code === selectedCode);
  if (!country || !isSupportedCountry(country)) {
    return typed ? checkPhone(raw, typed.code, countries) : { ok: false, error: 'invalidCountrySelection' };
  }
  const phone = normalizePhone(raw, country);
  if (phone !== null) {
    if (compiled(country.validation_abroad)?.test(phone)) return { ok: true, phone, country };
    if (typed && typed !== country && compiled(typed.validation_abroad)?.test(phone)) {
      return { ok: true, phone, country: typed };
    }
  }
  return { ok: false, error: 'pleaseEnterValidPhone', example: examplePhone(country) };
}

/** The country to preselect for a browser language tag ("sv-SE" → SE), when the list has it. */
export function countryForLocale(locales: readonly string[], countries: readonly Country[]): string | null {
  for (const tag of locales) {
    const parts = tag.split('-');
    const region = parts.length > 1 ? parts[parts.length - 1]?.toUpperCase() : undefined;
    const byRegion = region ? countries.find((c) => c.code === region) : undefined;
    if (byRegion) return byRegion.code;
    // A bare language that belongs to one supported country.
    const byLanguage = { sv: 'SE', id: 'ID' }[parts[0]?.toLowerCase() ?? ''];
    if (byLanguage && countries.some((c) => c.code === byLanguage)) return byLanguage;
  }
  return null;
}
