/** The settings chunk (/settings…, /profile): the settings list and its pages. */
export { AccountView } from '../../settings/AccountView';
export { ControlsView } from '../../settings/ControlsView';
export { HelpView } from '../../settings/HelpView';
export { NotificationsView } from '../../settings/NotificationsView';
export { SettingsList } from '../../settings/SettingsList';
