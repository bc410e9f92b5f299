import type { i18n } from 'i18next';
import type { Language } from './i18n';
import { localeFileOf, type TextGroup } from './textGroups';

type Tree = { [key: string]: string | Tree };

/**
 * The locale files, loaded on demand (issue 11): a reader fetches only the language they read, and of it
 * only the groups their screens need (textGroups.ts); another language only when they switch to it. Each
 * language's group is one module of ./localeGroups/ holding its areas' files, so one chunk.
 */
const GROUPS: Record<Language, Record<TextGroup, () => Promise<{ default: Record<string, unknown> }>>> = {
  en: { login: () => import('./localeGroups/locale-en'), app: () => import('./localeGroups/locale-en-app') },
  sv: { login: () => import('./localeGroups/locale-sv'), app: () => import('./localeGroups/locale-sv-app') },
};

/** Some groups of one language's texts, as the one i18next namespace holds them: `{ login: {…}, … }`. */
export async function loadTexts(language: Language, groups: readonly TextGroup[]): Promise<Tree> {
  const modules = await Promise.all(groups.map((group) => GROUPS[language][group]()));
  return Object.fromEntries(
    modules.flatMap((module) => Object.entries(module.default).map(([path, tree]) => [localeFileOf(path)?.area ?? path, tree as Tree])),
  );
}

/** What an i18n instance holds: the groups its screens asked for, and each language's loads of them. */
interface Held {
  groups: Set<TextGroup>;
  /** `sv/app` → the load of that group into the instance (dropped when it fails, so it is tried again). */
  loads: Map<string, Promise<void>>;
  /** `sv/app`: a group in the instance already. */
  loaded: Set<string>;
  /** The language applyLanguage is switching to, while its texts load. */
  switchingTo: Language | null;
}

const held = new WeakMap<i18n, Held>();

/**
 * The i18next instance itself. react-i18next's `useTranslation` hands out a copy of it (its methods bound to
 * the instance, its `language` a snapshot), a new one per component and language: state is kept per instance.
 */
export const instanceOf = (instance: i18n): i18n => (instance as i18n & { __original?: i18n }).__original ?? instance;

function heldBy(instance: i18n): Held {
  const key = instanceOf(instance);
  let state = held.get(key);
  if (!state) {
    state = { groups: new Set(), loads: new Map(), loaded: new Set(), switchingTo: null };
    held.set(key, state);
  }
  return state;
}

/** Records that `instance` was created holding these groups of `language` (createI18n loaded them). */
export function holdTexts(instance: i18n, language: Language, groups: readonly TextGroup[]): void {
  const state = heldBy(instance);
  for (const group of groups) {
    state.groups.add(group);
    state.loads.set(`${language}/${group}`, Promise.resolve());
    state.loaded.add(`${language}/${group}`);
  }
}

/** The groups `instance` holds, for its i18next backend (a language switched to without applyLanguage). */
export const heldGroups = (instance: i18n): TextGroup[] => [...heldBy(instance).groups];

/**
 * Adds to `instance` every group it holds, in `language`, that it lacks there. A group asked for while this
 * runs is loaded too before it resolves, so a language is never shown with a group missing.
 */
export async function addTexts(instance: i18n, language: Language): Promise<void> {
  const state = heldBy(instance);
  let count;
  do {
    count = state.groups.size;
    await Promise.all(
      [...state.groups].map((group) => {
        const key = `${language}/${group}`;
        let load = state.loads.get(key);
        if (!load) {
          load = loadTexts(language, [group]).then((tree) => {
            instance.addResourceBundle(language, 'translation', tree, true, true);
            state.loaded.add(key);
          });
          load.catch(() => state.loads.delete(key));
          state.loads.set(key, load);
        }
        return load;
      }),
    );
  } while (state.groups.size !== count);
}

/** Notes the language a switch is loading (null: none), so a group asked for meanwhile loads in it too. */
export function switchingTo(instance: i18n, language: Language | null): void {
  heldBy(instance).switchingTo = language;
}

export const isSwitchingTo = (instance: i18n): Language | null => heldBy(instance).switchingTo;

/** The languages a screen's texts must be in: the one shown, and the one a switch is loading. */
function languagesOf(instance: i18n, state: Held): Language[] {
  const shown = instanceOf(instance).language as Language;
  return state.switchingTo && state.switchingTo !== shown ? [shown, state.switchingTo] : [shown];
}

/** Whether `group` is in the instance's language and in the one it is switching to. */
export function hasTexts(instance: i18n, group: TextGroup): boolean {
  const state = heldBy(instance);
  return languagesOf(instance, state).every((language) => state.loaded.has(`${language}/${group}`));
}

/**
 * Loads `group` into the instance's language and into the one it is switching to, and holds it from now on
 * (a later switch loads it too): what a screen needing those texts waits for.
 */
export function textsReady(instance: i18n, group: TextGroup): Promise<void> {
  const state = heldBy(instance);
  state.groups.add(group);
  return Promise.all(languagesOf(instance, state).map((language) => addTexts(instance, language))).then(() => undefined);
}
