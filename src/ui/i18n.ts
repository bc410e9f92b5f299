import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['en', 'sv'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Mirrors the engine's stored choice so the first paint is already in the right language (design.md §4). */
export const LANGUAGE_KEY = 'language';

type Tree = { [key: string]: string | Tree };

/**
 * The resource files: `src/locales/<language>/<area>.json`, each holding the keys of one area of the app
 * (`login.json` → `login.*`), so every screen owns its texts and both languages stay side by side.
 */
const files = import.meta.glob<Tree>('../locales/*/*.json', { eager: true, import: 'default' });

export function localeResources(): Record<Language, Tree> {
  const resources: Record<string, Tree> = {};
  for (const [file, tree] of Object.entries(files)) {
    const match = /\/locales\/(\w+)\/([\w-]+)\.json$/.exec(file);
    if (!match) continue;
    const [, language, area] = match as unknown as [string, string, string];
    (resources[language] ??= {})[area] = tree;
  }
  return resources as Record<Language, Tree>;
}

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

/** The stored choice, else the browser's language, else English (spec §9). */
export function initialLanguage(stored: string | null, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export async function createI18n(language: Language): Promise<i18n> {
  const instance = i18next.createInstance();
  const resources = localeResources();
  await instance.use(initReactI18next).init({
    resources: Object.fromEntries(LANGUAGES.map((l) => [l, { translation: resources[l] }])),
    lng: language,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

/** Shows a language at once and mirrors it for the next first paint; the engine keeps the choice itself. */
export function applyLanguage(instance: i18n, language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  document.documentElement.lang = language;
  if (instance.language !== language) void instance.changeLanguage(language);
}
