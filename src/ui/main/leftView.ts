import { PATHS } from '../routing/paths';

/** The left panel views that have a URL of their own (spec §2: the URL follows the left view). */
export type LeftView =
  | 'chats'
  | 'explore'
  /** Community details, `/explore/{communityId}` (design.md §4). */
  | 'community'
  /** Channel info / join channel, `/explore/{communityId}/channels/{channelId}`. */
  | 'channel'
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
  if (/^\/explore\/[^/]+\/channels\/[^/]+$/.test(trimmed)) return 'channel';
  if (/^\/explore\/[^/]+$/.test(trimmed)) return 'community';
  return BY_PATH[trimmed] ?? 'chats';
}

export function sectionOf(view: LeftView): MenuSection {
  if (view === 'chats') return 'chats';
  if (view === 'explore' || view === 'community' || view === 'channel') return 'communities';
  return 'settings';
}

/** Whether a left view belongs to the communities section (shown only where communities are allowed). */
export const isCommunitiesView = (view: LeftView): boolean => sectionOf(view) === 'communities';

/** A positive integer id of a route parameter (`/inbox/{id}`, `/explore/{id}`), or null for anything else. */
export function idParamOf(param: string | undefined): number | null {
  if (!param || !/^\d+$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
