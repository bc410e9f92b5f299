import type { BackendModule, i18n } from 'i18next';
import type { Language } from './i18n';
import { localeFileOf, type TextGroup } from './textGroups';

type Tree = { [key: string]: string | Tree };

/**
 * The locale files, loaded on demand (issue 11): a reader fetches only the language they read, and of it
 * only the groups their screens need (textGroups.ts); another language only when they switch to it. Each
 * group is an i18next namespace, and each language's group one module of ./localeGroups/, so one chunk.
 */
const CHUNKS: Record<Language, Record<TextGroup, () => Promise<{ default: Record<string, unknown> }>>> = {
  en: { login: () => import('./localeGroups/locale-en'), app: () => import('./localeGroups/locale-en-app') },
  sv: { login: () => import('./localeGroups/locale-sv'), app: () => import('./localeGroups/locale-sv-app') },
};

/** One group of one language as its namespace holds it: `{ common: {…}, errors: {…}, login: {…} }`. */
async function readGroup(language: string, group: string): Promise<Tree> {
  const groups = Object.hasOwn(CHUNKS, language) ? CHUNKS[language as Language] : null;
  const load = groups && Object.hasOwn(groups, group) ? groups[group as TextGroup] : null;
  if (!load) throw new Error(`no texts ${language}/${group}`);
  const module = await load();
  return Object.fromEntries(Object.entries(module.default).map(([path, tree]) => [localeFileOf(path)?.area ?? path, tree as Tree]));
}

/** i18next's backend: it asks for a namespace (a group) of a language when loadNamespaces or a switch needs it. */
export const localeChunks: BackendModule = {
  type: 'backend',
  callbackApi: false,
  init: () => undefined,
  read: readGroup,
};

/**
 * Loads every namespace the instance uses into `language` and rejects if one is still missing. i18next
 * neither retries a namespace whose load failed nor reports the failure to loadNamespaces' caller, so the
 * missing ones are loaded again here (a chunk that failed offline loads on the next try). A namespace added
 * while this waits (a screen behind sign-in asking for `app` during a switch) is loaded too before it
 * resolves, so a language is never shown with a group missing.
 */
export async function loadTexts(instance: i18n, language: string): Promise<void> {
  for (;;) {
    const missing = namespacesOf(instance).filter((group) => !instance.hasResourceBundle(language, group));
    if (missing.length === 0) return;
    await instance.reloadResources([language], missing);
    const failed = missing.filter((group) => !instance.hasResourceBundle(language, group));
    if (failed.length > 0) throw new Error(`the ${language} texts ${failed.join(', ')} could not be loaded`);
  }
}

const namespacesOf = (instance: i18n): string[] => {
  const ns = instance.options.ns;
  return typeof ns === 'string' ? [ns] : [...(ns ?? [])];
};

/** Whether the language shown has `group`: a screen needing it renders at once. */
export const hasTexts = (instance: i18n, group: TextGroup): boolean => instance.hasResourceBundle(instance.language, group);

/**
 * Loads `group` into the language shown, and holds it from now on: a later switch loads it too (i18next loads
 * a language's every namespace). What a screen needing those texts waits for.
 */
export async function textsReady(instance: i18n, group: TextGroup): Promise<void> {
  await instance.loadNamespaces(group);
  await loadTexts(instance, instance.language);
}
