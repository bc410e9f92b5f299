import { describe, expect, it } from 'vitest';
import en from '../../src/locales/en.json';
import sv from '../../src/locales/sv.json';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

describe('locales', () => {
  it('have the same keys in English and Swedish', () => {
    expect(keys(sv).sort()).toEqual(keys(en).sort());
  });

  it('have no empty texts', () => {
    const empty = (value: unknown): boolean =>
      typeof value === 'string' ? value.trim() === '' : Object.values(value as object).some(empty);
    expect(empty(en)).toBe(false);
    expect(empty(sv)).toBe(false);
  });
});
