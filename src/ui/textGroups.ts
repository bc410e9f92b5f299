/**
 * The texts come in two groups per language, each one chunk (./localeGroups/): `login` holds the areas the
 * login screens need, which every other screen shares too; `app` holds the rest and loads with the first
 * screen behind them. So /login fetches a third of one language's texts, and nothing of the other's.
 * An area is a file of `src/locales/<language>/` (`chat.json` holds `chat.*`).
 */
export type TextGroup = 'login' | 'app';
export const TEXT_GROUPS: readonly TextGroup[] = ['login', 'app'];

/** The login group's areas; ./localeGroups/ lists them again (a glob takes literals only), checked by a test. */
export const LOGIN_AREAS: readonly string[] = ['common', 'errors', 'login'];

export const textGroupOf = (area: string): TextGroup => (LOGIN_AREAS.includes(area) ? 'login' : 'app');

/** A locale file's language and area, from its path (`…/src/locales/sv/chat.json` → sv, chat), if it is one. */
export function localeFileOf(path: string): { language: string; area: string } | null {
  const match = /[\\/]locales[\\/](\w+)[\\/]([\w-]+)\.json$/.exec(path);
  return match ? { language: match[1] ?? '', area: match[2] ?? '' } : null;
}
