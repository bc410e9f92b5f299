import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { CHATS_PATH, COMMUNITIES_PATH, MenuIcon, SETTINGS_PATH } from './IconMenu';
import type { LeftView } from './leftView';

/** What the center says about each left view when no chat is open in it (nav.pane.*). */
type Pane = 'chats' | 'explore' | 'community' | 'channel' | 'settings';

const PANES: Record<LeftView, Pane> = {
  chats: 'chats',
  explore: 'explore',
  community: 'community',
  channel: 'channel',
  settings: 'settings',
  settingsControls: 'settings',
  settingsNotifications: 'settings',
  settingsHelp: 'settings',
  account: 'settings',
};

const ICONS: Record<Pane, string> = {
  chats: CHATS_PATH,
  explore: COMMUNITIES_PATH,
  community: COMMUNITIES_PATH,
  channel: COMMUNITIES_PATH,
  settings: SETTINGS_PATH,
};

/**
 * The center of the main screen with no chat open: a word about the left view beside it ("Select a chat"
 * beside the chats list, the communities' own words beside explore, a community or a channel's info, the
 * settings' beside settings), with its section's icon.
 */
export const EmptyPane = memo(function EmptyPane({ view }: { view: LeftView }) {
  const { t } = useTranslation();
  const pane = PANES[view];
  return (
    <div className="empty-chat" data-pane={pane}>
      <span className="empty-chat__icon">
        <MenuIcon d={ICONS[pane]} size={40} />
      </span>
      <p className="empty-chat__title">{t(`nav.pane.${pane}.title`)}</p>
      <p className="empty-chat__hint">{t(`nav.pane.${pane}.hint`)}</p>
    </div>
  );
});
