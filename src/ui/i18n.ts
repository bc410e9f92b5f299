import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { reportError } from '../reporting/reporter';
import { TEXT_GROUPS, type TextGroup } from './textGroups';
import { loadTexts, localeChunks } from './texts';

export const LANGUAGES = ['en', 'sv'] as const;
export type Language = (typeof LANGUAGES)[number];
/** Mirrors the engine's stored choice so the first paint is already in the right language (design.md §4). */
export const LANGUAGE_KEY = 'language';

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

/**
 * An i18n instance showing `language`, resolved once these groups of its texts are loaded (and nothing of
 * another language). Each group is a namespace; the app starts with `login`, and screens behind sign-in ask
 * for `app` (textsReady). Tests take every group, so any screen renders at once.
 */
export async function createI18n(language: Language, groups: readonly TextGroup[] = TEXT_GROUPS): Promise<i18n> {
  const instance = i18next.createInstance();
  await instance
    .use(localeChunks)
    .use(initReactI18next)
    .init({
      lng: language,
      ns: [...groups],
      // Keys keep their area (`login.phone.title`, `chat.loading`), so no call names a namespace: a key not in
      // the login group is looked up in the app group. Components wait for `login` only (useTranslation's
      // default), so the login page never asks for `app`.
      defaultNS: 'login',
      fallbackNS: 'app',
      // The chunks are fetched now, not after a timer.
      initAsync: false,
      supportedLngs: LANGUAGES,
      // Both languages hold every key (tests/unit/locales.test.ts): no fallback, so only one is ever loaded.
      fallbackLng: false,
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  // i18next resolves even when a chunk failed: a start without its texts fails as it did before.
  await loadTexts(instance, language);
  return instance;
}

/** The language each instance was last asked to show, so a slower earlier switch does not override it. */
const chosen = new WeakMap<i18n, Language>();

/**
 * Shows a language once its texts are loaded (until then the old one stays: never a flash of keys) and
 * mirrors it for the next first paint; the engine keeps the choice itself. If its chunk cannot be fetched
 * (offline, or a newer deploy replaced it) the old language stays, and the next switch tries again.
 * `instance` is the i18next instance itself (I18nContext's), not useTranslation's snapshot of it.
 */
export function applyLanguage(instance: i18n, language: Language): void {
  localStorage.setItem(LANGUAGE_KEY, language);
  chosen.set(instance, language);
  loadTexts(instance, language).then(
    () => {
      // A later switch went elsewhere meanwhile: it shows its own language.
      if (chosen.get(instance) !== language) return;
      document.documentElement.lang = language;
      if (instance.language !== language) void instance.changeLanguage(language);
    },
    (error: unknown) => {
      console.warn(`the ${language} texts could not be loaded`, error);
      reportError(error);
    },
  );
}
