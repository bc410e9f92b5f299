/** The routes of spec §2, in one place for links and redirects. */
export const PATHS = {
  login: '/login',
  nickname: '/nickname',
  satir: '/satir',
  satirNickname: '/satir-nickname',
  inbox: '/inbox',
  explore: '/explore',
  settings: '/settings',
  settingsControls: '/settings/controls',
  settingsNotifications: '/settings/notifications',
  settingsHelp: '/settings/help',
  profile: '/profile',
  debug: '/debug',
} as const;

export const chatPath = (conversationId: number) => `/inbox/${conversationId}`;

/** The protest variant of the login screen (spec §1) uses its own pair of routes. */
export type LoginVariant = 'standard' | 'satir';
