import { PATHS } from '../routing/paths';

/** The left panel views that have a URL of their own (spec §2: the URL follows the left view). */
export type LeftView =
  | 'chats'
  | 'explore'
  | 'settings'
  | 'settingsControls'
  | 'settingsNotifications'
  | 'settingsHelp'
  | 'account';

/** The icon-menu section a view belongs to, for aria-current. */
export type MenuSection = 'chats' | 'communities' | 'settings';

const BY_PATH: Record<string, LeftView> = {
  [PATHS.explore]: 'explore',
  [PATHS.settings]: 'settings',
  [PATHS.settingsControls]: 'settingsControls',
  [PATHS.settingsNotifications]: 'settingsNotifications',
  [PATHS.settingsHelp]: 'settingsHelp',
  [PATHS.profile]: 'account',
};

/** The left view a pathname shows: /inbox, /inbox/{id}, / and every unknown path show the chats list. */
export function leftViewOf(pathname: string): LeftView {
  const trimmed = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return BY_PATH[trimmed] ?? 'chats';
}

export function sectionOf(view: LeftView): MenuSection {
  if (view === 'chats') return 'chats';
  if (view === 'explore') return 'communities';
  return 'settings';
}

/** The open chat of `/inbox/{id}`, or null for anything that is not a positive integer id. */
export function conversationIdOf(param: string | undefined): number | null {
  if (!param || !/^\d+$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export const LEFT_VIEW_PATHS: Record<LeftView, string> = {
  chats: PATHS.inbox,
  explore: PATHS.explore,
  settings: PATHS.settings,
  settingsControls: PATHS.settingsControls,
  settingsNotifications: PATHS.settingsNotifications,
  settingsHelp: PATHS.settingsHelp,
  account: PATHS.profile,
};
