import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES = path.resolve(import.meta.dirname, '../../src/locales');

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function load(language: string): Record<string, unknown> {
  const dir = path.join(LOCALES, language);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as unknown]),
  );
}

/** Every literal key the UI asks for: `t('area.key')` and `i18nKey="area.key"`. */
function usedKeys(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const text = readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
    for (const m of text.matchAll(/\bt\(\s*['"`]([\w-]+\.[\w.-]+)['"`]/g)) found.push(m[1] ?? '');
    for (const m of text.matchAll(/i18nKey=["']([\w-]+\.[\w.-]+)["']/g)) found.push(m[1] ?? '');
  }
  return [...new Set(found)];
}

const en = load('en');
const sv = load('sv');

describe('locales', () => {
  it('have the same files and keys in English and Swedish', () => {
    expect(Object.keys(sv).sort()).toEqual(Object.keys(en).sort());
    expect(keys(sv).sort()).toEqual(keys(en).sort());
  });

  it('hold every key the UI uses, in both languages', () => {
    const known = new Set(keys(en));
    // A key with plural forms is stored as key_one / key_other.
    const has = (key: string) => known.has(key) || known.has(`${key}_other`);
    const missing = usedKeys(path.resolve(import.meta.dirname, '../../src/ui')).filter((key) => !has(key));
    expect(missing).toEqual([]);
  });

  it('have no empty texts', () => {
    const empty = (value: unknown): boolean =>
      typeof value === 'string' ? value.trim() === '' : Object.values(value as object).some(empty);
    expect(empty(en)).toBe(false);
    expect(empty(sv)).toBe(false);
  });

  it('use the same interpolation variables in both languages', () => {
    const vars = (tree: unknown, key: string): string[] => {
      const text = key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], tree);
      return [...String(text).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
    };
    for (const key of keys(en)) expect(vars(sv, key), key).toEqual(vars(en, key));
  });
});
