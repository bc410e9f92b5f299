import type { Country } from '../../src/protocol/entities';

/**
 * Countries the service supports. `validation` matches a national mobile number (digits only, as typed
 * after removing spaces), `validation_abroad` the international form. Empty endpoints mean "this server".
 */
export const COUNTRIES: readonly Country[] = [
  {
    code: 'SE',
    name: 'Sweden',
    cc: '46',
    // Swedish mobiles: 07[02369] followed by seven digits.
    validation: '^0?7[02369]\\d{7}$',
    validation_abroad: '^\\+467[02369]\\d{7}$',
    format_international: ['^\\+46(\\d{2})(\\d{3})(\\d{2})(\\d{2})$', '+46 $1 $2 $3 $4'],
    endpoints: { http: '', ws: '' },
    communities_enabled: false,
  },
  {
    code: 'ID',
    name: 'Indonesia',
    cc: '62',
    // Indonesian mobiles: 08 and 8 to 11 more digits nationally (+628… abroad).
    validation: '^0?8[1-9]\\d{7,10}$',
    validation_abroad: '^\\+628[1-9]\\d{7,10}$',
    format_international: ['^\\+62(\\d{3})(\\d{4})(\\d+)$', '+62 $1-$2-$3'],
    endpoints: { http: '', ws: '' },
    communities_enabled: true,
  },
];

/** The canonical +E.164 form of a phone number, or null when no supported country accepts it. */
export function normalizePhone(raw: string): { phone: string; country: Country } | null {
  if (raw.length > 32) return null;
  let phone = raw.replace(/[\s().-]/g, '');
  if (phone.startsWith('00')) phone = `+${phone.slice(2)}`;
  if (!phone.startsWith('+')) phone = `+${phone}`;
  for (const country of COUNTRIES) {
    if (new RegExp(country.validation_abroad).test(phone)) return { phone, country };
  }
  return null;
}
