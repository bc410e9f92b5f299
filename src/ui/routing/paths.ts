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
/** Design §4: community details follow the left view at /explore/{communityId}; channel info below it. */
export const communityPath = (communityId: number) => `/explore/${communityId}`;
export const channelInfoPath = (communityId: number, channelId: number) => `/explore/${communityId}/channels/${channelId}`;

/** The protest variant of the login screen (spec §1) uses its own pair of routes. */
export type LoginVariant = 'standard' | 'satir';
