import i18next, { type BackendModule, type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { reportError } from '../reporting/reporter';
import { TEXT_GROUPS, type TextGroup } from './textGroups';
import { addTexts, heldGroups, holdTexts, instanceOf, isSwitchingTo, loadTexts, switchingTo } from './texts';

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
 * another language). The app starts with the login group; screens behind sign-in ask for the rest
 * (textsReady). Tests take every group, so any screen renders at once.
 */
export async function createI18n(language: Language, groups: readonly TextGroup[] = TEXT_GROUPS): Promise<i18n> {
  const instance = i18next.createInstance();
  const texts = await loadTexts(language, groups);
  holdTexts(instance, language, groups);
  // A language switched to without applyLanguage (a test's changeLanguage) is fetched by i18next itself.
  const backend: BackendModule = {
    type: 'backend',
    callbackApi: false,
    init: () => undefined,
    read: (other: string) => (isLanguage(other) ? loadTexts(other, heldGroups(instance)) : Promise.resolve({})),
  };
  await instance
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: language,
      resources: { [language]: { translation: texts } },
      partialBundledLanguages: true,
      supportedLngs: LANGUAGES,
      // Both languages hold every key (tests/unit/locales.test.ts): no fallback, so only one is ever loaded.
      fallbackLng: false,
      load: 'currentOnly',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  return instance;
}

/**
 * Shows a language once its texts are loaded (until then the old one stays: never a flash of keys) and
 * mirrors it for the next first paint; the engine keeps the choice itself. If its chunk cannot be fetched
 * (offline, or a newer deploy replaced it) the old language stays, and the next switch tries again.
 */
export function applyLanguage(instance: i18n, language: Language): void {
  const target = instanceOf(instance);
  localStorage.setItem(LANGUAGE_KEY, language);
  switchingTo(target, language);
  addTexts(target, language).then(
    () => {
      // A later switch went elsewhere meanwhile: it shows its own language.
      if (isSwitchingTo(target) !== language) return;
      switchingTo(target, null);
      document.documentElement.lang = language;
      if (target.language !== language) void target.changeLanguage(language);
    },
    (error: unknown) => {
      if (isSwitchingTo(target) === language) switchingTo(target, null);
      console.warn(`the ${language} texts could not be loaded`, error);
      reportError(error);
    },
  );
}
