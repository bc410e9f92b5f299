import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MUTE_CHOICES, type SignedOutReason } from '../../src/engine/api';
import { QUICK_REACTION_ITEMS } from '../../src/ui/chat/actions/quickReactions';
import { PRESETS } from '../../src/ui/debug/environments';
import { LANGUAGES } from '../../src/ui/i18n';

const LOCALES = path.resolve(import.meta.dirname, '../../src/locales');
const UI = path.resolve(import.meta.dirname, '../../src/ui');

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

const en = load('en');
const sv = load('sv');
/** The key prefixes: one per locale file (`login.json` holds `login.*`). */
const AREAS = Object.keys(en);

function uiSources(): { file: string; text: string }[] {
  return readdirSync(UI, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(UI, file), text: readFileSync(file, 'utf8') };
    });
}

/**
 * The values each template key of the UI can take. A template key the UI builds (`t(\`area.${x}\`)`) is
 * invisible to a scan of literals, so every one must be listed here: a new template fails the test until it
 * is, and each listed value is then checked like a literal key.
 */
const TEMPLATE_VALUES: Record<string, readonly (readonly string[])[]> = {
  'chatActions.reactions.${nameKey}': [QUICK_REACTION_ITEMS.map((item) => item.nameKey)],
  'nav.connection.${state}': [['connecting', 'online', 'closed']],
  'common.languages.${language}': [LANGUAGES],
  'login.${shown}.title': [['phone', 'pin', 'nickname']],
  'login.${key}': [['pleaseSelectCountry', 'invalidCountrySelection', 'pleaseEnterValidPhone']],
  'login.${invalid}': [['pleaseEnterNickname', 'nicknameTooLong']],
  'login.${problem}': [['pleaseEnterNickname', 'nicknameTooLong']],
  'login.signedOut.${reason}': [['sessionEnded', 'dataCleared'] satisfies SignedOutReason[]],
  // The countries the reference server lists; others fall back to the server's name (defaultValue).
  'login.countries.${country.code}': [['SE', 'ID']],
  'satir.faq.${key}.q': [['what', 'why', 'politicians', 'real', 'act', 'messenger']],
  'satir.faq.${key}.a': [['what', 'why', 'politicians', 'real', 'act', 'messenger']],
  'satir.ticker.${key}': [['cake', 'beach', 'minister', 'record', 'encryption', 'postcards']],
  'settings.faqItems.${key}.q': [['signIn', 'pin', 'notifications', 'edit', 'communities']],
  'settings.faqItems.${key}.a': [['signIn', 'pin', 'notifications', 'edit', 'communities']],
  'debug.hosts.${failure}': [['saveFailed', 'resetFailed']],
  'debug.hosts.${check.error}': [['invalidApiBase', 'invalidWsBase']],
  'debug.hosts.presets.${preset.id}': [PRESETS.map((p) => p.id)],
  'chatSettings.profile.demote.${role}.button': [['broadcaster', 'admin']],
  'chatSettings.profile.promote.${role}.button': [['broadcaster', 'admin']],
  'chatSettings.profile.${pending}.${role}.title': [['promote', 'demote'], ['broadcaster', 'admin']],
  'chatSettings.profile.${pending}.${role}.text': [['promote', 'demote'], ['broadcaster', 'admin']],
  'chatSettings.profile.${pending}.${role}.confirm': [['promote', 'demote'], ['broadcaster', 'admin']],
  'chatSettings.mute.${choice}': [MUTE_CHOICES],
  'inbox.kind.${kind}': [['private', 'group', 'broadcast']],
  'inbox.kind.${kind}Hint': [['private', 'group', 'broadcast']],
  'nav.pane.${pane}.title': [['chats', 'explore', 'community', 'channel', 'settings']],
  'nav.pane.${pane}.hint': [['chats', 'explore', 'community', 'channel', 'settings']],
};

/** Every value of a template: each `${…}` in turn takes each of its listed values. */
function expand(template: string, values: readonly (readonly string[])[]): string[] {
  const parts = template.split(/\$\{[^}]+\}/);
  let out = [parts[0] ?? ''];
  parts.slice(1).forEach((rest, i) => {
    out = out.flatMap((head) => (values[i] ?? []).map((v) => `${head}${v}${rest}`));
  });
  return out;
}

interface Used {
  /** Literal keys: `t('a.b')`, `i18nKey="a.b"`, and any string literal shaped like a key of a locale file. */
  literal: string[];
  /** Template keys as written, e.g. `login.${shown}.title`. */
  templates: string[];
}

/** File names look like keys (`login.json`): they are not. */
const FILE_NAME = /\.(json|css|tsx?|png|svg|webp|mp3|mp4)$/;

function usedKeys(): Used {
  const literal = new Set<string>();
  const templates = new Set<string>();
  const areaKey = new RegExp(`^(${AREAS.join('|')})\\.[\\w-]+(\\.[\\w-]+)*$`);
  const templateStart = new RegExp(`^(${AREAS.join('|')}|chatSettings)\\.`);
  for (const { text } of uiSources()) {
    for (const m of text.matchAll(/\bt\(\s*['"`]([\w-]+\.[\w.-]+)['"`]/g)) literal.add(m[1] ?? '');
    for (const m of text.matchAll(/i18nKey=["']([\w-]+\.[\w.-]+)["']/g)) literal.add(m[1] ?? '');
    // Key tables (`{ empty: 'inbox.form.nameRequired' }`) and keys passed around before t() sees them.
    for (const m of text.matchAll(/'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\]*)`/g)) {
      const value = m[1] ?? m[2] ?? m[3] ?? '';
      if (m[3] !== undefined && value.includes('${')) {
        // Only the key part of a template that starts with one (`${t(`login.${x}.title`)} – …` holds one).
        if (templateStart.test(value)) templates.add(value);
      } else if (areaKey.test(value) && !FILE_NAME.test(value)) {
        literal.add(value);
      }
    }
    // A template nested in another one's `${…}` is not matched above: find `t(\`…${…}…\``) directly.
    for (const m of text.matchAll(/\bt\(\s*`([\w.-]*\$\{[^`]*)`/g)) templates.add(m[1] ?? '');
  }
  return { literal: [...literal], templates: [...templates] };
}

/** Whether a language holds the key: a text, a plural (key_one / key_other), or a table of texts. */
function holds(tree: Record<string, unknown>, key: string): boolean {
  const node = holdsNode(tree, key);
  if (typeof node === 'string' || (typeof node === 'object' && node !== null)) return true;
  const dot = key.lastIndexOf('.');
  const parent = dot < 0 ? tree : holdsNode(tree, key.slice(0, dot));
  const leaf = key.slice(dot + 1);
  return typeof parent === 'object' && parent !== null && `${leaf}_other` in parent;
}

/** The text or table at a dotted key, if any. */
function holdsNode(tree: Record<string, unknown>, key: string): unknown {
  return key
    .split('.')
    .reduce<unknown>((at, k) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[k] : undefined), tree);
}

describe('locales', () => {
  const used = usedKeys();

  it('have the same files and keys in English and Swedish', () => {
    expect(Object.keys(sv).sort()).toEqual(Object.keys(en).sort());
    expect(keys(sv).sort()).toEqual(keys(en).sort());
  });

  it('finds the keys of key tables and the template keys (the scan itself works)', () => {
    expect(used.literal).toContain('inbox.form.nameRequired');
    expect(used.templates).toContain('nav.connection.${state}');
    expect(used.templates).toContain('login.${shown}.title');
    expect(expand('login.${shown}.title', [['pin']])).toEqual(['login.pin.title']);
  });

  it('lists the values of every template key the UI builds', () => {
    expect(used.templates.filter((template) => !(template in TEMPLATE_VALUES))).toEqual([]);
  });

  for (const [language, tree] of [
    ['English', en],
    ['Swedish', sv],
  ] as const) {
    it(`hold every key the UI uses, literal or built from a template, in ${language}`, () => {
      const expanded = used.templates.flatMap((template) => expand(template, TEMPLATE_VALUES[template] ?? []));
      const missing = [...used.literal, ...expanded].filter((key) => !holds(tree, key));
      expect([...new Set(missing)]).toEqual([]);
    });
  }

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
