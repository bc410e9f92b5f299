import { describe, expect, it } from 'vitest';
import { COUNTRIES } from '../../../server/domain/countries';
import type { Country } from '../../../src/protocol/entities';
import {
  checkPhone,
  countryForNumber,
  countryForLocale,
  examplePhone,
  formatPhone,
  minNationalDigits,
  normalizePhone,
  placeholderPhone,
} from '../../../src/ui/login/phone';

// The reference server's own list, so the patterns tested are the ones the app is served.
const SE = COUNTRIES.find((c) => c.code === 'SE') as Country;
const ID = COUNTRIES.find((c) => c.code === 'ID') as Country;

describe('normalizePhone', () => {
  it.each([
    ['070-123 45 61', '+46701234561'],
    ['0701234561', '+46701234561'],
    ['701234561', '+46701234561'],
    ['+46701234561', '+46701234561'],
    ['+46 70 123 45 61', '+46701234561'],
    ['46701234561', '+46701234561'],
    ['0046701234561', '+46701234561'],
    ['(070) 123.45.61', '+46701234561'],
    ['  0701234561  ', '+46701234561'],
  ])('reads the Swedish %j as %s', (raw, phone) => {
    expect(normalizePhone(raw, SE)).toBe(phone);
  });

  it.each([
    ['0812345678901', '+62812345678901'],
    ['0812-3456-7890', '+6281234567890'],
    ['81234567890', '+6281234567890'],
    ['6281234567890', '+6281234567890'],
    ['+62 812-3456-7890', '+6281234567890'],
  ])('reads the Indonesian %j as %s', (raw, phone) => {
    expect(normalizePhone(raw, ID)).toBe(phone);
  });

  it('keeps a short number that begins with the dial code national (the minimum-digits heuristic)', () => {
    // "46123" has only 3 digits after 46: it cannot be international, so it is a national number.
    expect(normalizePhone('46123', SE)).toBe('+4646123');
    expect(normalizePhone('4612345678', SE)).toBe('+464612345678');
    // Nine digits after 46 reach the minimum: typed internationally without the plus.
    expect(normalizePhone('46123456789', SE)).toBe('+46123456789');
  });

  it('gives up on what cannot be a number', () => {
    expect(normalizePhone('', SE)).toBeNull();
    expect(normalizePhone('07O1234561', SE)).toBeNull();
    expect(normalizePhone('+46+701234561', SE)).toBeNull();
    expect(normalizePhone('call me', ID)).toBeNull();
  });

  it('takes 10, 9 or 8 national digits as the minimum, by the length of the dial code', () => {
    expect(minNationalDigits('1')).toBe(10);
    expect(minNationalDigits('46')).toBe(9);
    expect(minNationalDigits('358')).toBe(8);
  });
});

describe('checkPhone', () => {
  it('accepts every written form of a Swedish mobile', () => {
    for (const raw of ['070-123 45 61', '0701234561', '+46701234561', '46701234561']) {
      expect(checkPhone(raw, 'SE', COUNTRIES)).toEqual({ ok: true, phone: '+46701234561', country: SE });
    }
  });

  it('accepts an Indonesian mobile', () => {
    expect(checkPhone('0812345678901', 'ID', COUNTRIES)).toEqual({ ok: true, phone: '+62812345678901', country: ID });
    expect(checkPhone('0812345678', 'ID', COUNTRIES)).toEqual({ ok: true, phone: '+62812345678', country: ID });
  });

  it('asks for a country first', () => {
    expect(checkPhone('0701234561', null, COUNTRIES)).toEqual({ ok: false, error: 'pleaseSelectCountry' });
    expect(checkPhone('0701234561', '', COUNTRIES)).toEqual({ ok: false, error: 'pleaseSelectCountry' });
    expect(checkPhone('+4712345678', null, COUNTRIES)).toEqual({ ok: false, error: 'pleaseSelectCountry' });
  });

  it('takes the country from a number typed with its prefix when none is chosen', () => {
    expect(checkPhone('+46701234561', null, COUNTRIES)).toEqual({ ok: true, phone: '+46701234561', country: SE });
    expect(checkPhone('0046 70 123 45 61', '', COUNTRIES)).toEqual({ ok: true, phone: '+46701234561', country: SE });
    expect(checkPhone('+62 812 3456 7890', null, COUNTRIES)).toEqual({ ok: true, phone: '+6281234567890', country: ID });
    // The prefix names the country, so a bad number there gets that country's example.
    expect(checkPhone('+4680123', null, COUNTRIES)).toEqual({
      ok: false,
      error: 'pleaseEnterValidPhone',
      example: '+46 70 123 45 61',
    });
    // A chosen country the list lacks gives way to the prefix too.
    expect(checkPhone('+46701234561', 'NO', COUNTRIES)).toEqual({ ok: true, phone: '+46701234561', country: SE });
  });

  it('names the country of a prefix while it is typed', () => {
    expect(countryForNumber('+46', COUNTRIES)).toEqual(SE);
    expect(countryForNumber('+62 8', COUNTRIES)).toEqual(ID);
    expect(countryForNumber('00467', COUNTRIES)).toEqual(SE);
    expect(countryForNumber('+4', COUNTRIES)).toBeNull();
    expect(countryForNumber('0701234561', COUNTRIES)).toBeNull();
    expect(countryForNumber('46701234561', COUNTRIES)).toBeNull();
  });

  it('refuses a country the list does not support', () => {
    expect(checkPhone('0701234561', 'NO', COUNTRIES)).toEqual({ ok: false, error: 'invalidCountrySelection' });
    expect(checkPhone('0701234561', 'SE', [])).toEqual({ ok: false, error: 'invalidCountrySelection' });
    const broken: Country = { ...SE, validation_abroad: '^(+' };
    expect(checkPhone('0701234561', 'SE', [broken])).toEqual({ ok: false, error: 'invalidCountrySelection' });
  });

  it.each([
    ['SE', ''],
    ['SE', '12345'],
    ['SE', '0801234561'], // a Swedish landline, not a mobile
    ['SE', '07012345610'], // one digit too many
    ['SE', '070123456'], // one digit too few
    ['SE', 'abc'],
    ['ID', '0212345678'], // a Jakarta landline
    ['ID', '08123456'], // too short
    ['ID', '0812345678901234'], // too long
  ])('refuses %s %j with an example of that country', (code, raw) => {
    const result = checkPhone(raw, code, COUNTRIES);
    expect(result).toEqual({
      ok: false,
      error: 'pleaseEnterValidPhone',
      example: code === 'SE' ? '+46 70 123 45 61' : '+62 812-3456-7890',
    });
  });

  it('takes a number typed with another supported country’s plus prefix for that country', () => {
    expect(checkPhone('+62 812 3456 7890', 'SE', COUNTRIES)).toEqual({ ok: true, phone: '+6281234567890', country: ID });
    expect(checkPhone('0046701234561', 'ID', COUNTRIES)).toEqual({ ok: true, phone: '+46701234561', country: SE });
    // Without the prefix the selected country decides: 46701234561 is no Indonesian number.
    expect(checkPhone('46701234561', 'ID', COUNTRIES)).toMatchObject({ ok: false, error: 'pleaseEnterValidPhone' });
    // A prefix of no supported country stays an invalid number.
    expect(checkPhone('+4712345678', 'SE', COUNTRIES)).toMatchObject({ ok: false, error: 'pleaseEnterValidPhone' });
  });
});

describe('display helpers', () => {
  it('formats with the country’s international pattern', () => {
    expect(formatPhone('+46701234561', SE)).toBe('+46 70 123 45 61');
    expect(formatPhone('+6281234567890', ID)).toBe('+62 812-3456-7890');
    expect(formatPhone('+6281234567890', SE)).toBe('+6281234567890');
    expect(formatPhone('+46701234561', undefined)).toBe('+46701234561');
  });

  it('has an example and a placeholder per country', () => {
    expect(examplePhone(SE)).toBe('+46 70 123 45 61');
    expect(examplePhone(ID)).toBe('+62 812-3456-7890');
    expect(examplePhone({ ...SE, code: 'XX', cc: '99' })).toBe('+99…');
    expect(placeholderPhone(SE)).toBe('0701234561');
    expect(placeholderPhone(undefined)).toBe('');
  });

  it('preselects the country of the browser’s region or language', () => {
    expect(countryForLocale(['sv-SE'], COUNTRIES)).toBe('SE');
    expect(countryForLocale(['en-US', 'id'], COUNTRIES)).toBe('ID');
    expect(countryForLocale(['sv'], COUNTRIES)).toBe('SE');
    expect(countryForLocale(['en-US', 'en'], COUNTRIES)).toBeNull();
    expect(countryForLocale(['sv-SE'], [])).toBeNull();
  });
});
