import type { Language } from '../contract/types';

/**
 * The app's language for a browser whose user chose none (spec §9): the first of its languages the app
 * has (any region: `sv-SE` is `sv`), else English, as the tabs pick it (src/ui/i18n.ts). Null when the
 * browser's languages are not known (no tab has said, and this thread has no `navigator`).
 */
export function browserLanguage(languages: readonly string[] | null | undefined): Language | null {
  if (!languages || languages.length === 0) return null;
  for (const tag of languages) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'sv') return base;
  }
  return 'en';
}

/** This thread's own `navigator.languages` (a worker's too), or null where there is none (Node before 21; Node 22 has one, its languages the process locale). */
export function threadLanguages(): readonly string[] | null {
  return typeof navigator === 'undefined' || !Array.isArray(navigator.languages) ? null : navigator.languages;
}
