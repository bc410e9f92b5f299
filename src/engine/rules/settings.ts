import type { AppSettings } from '../contract/types';

export const DEFAULT_APP_SETTINGS: Readonly<AppSettings> = Object.freeze({
  enterToSend: true,
  notificationsEnable: true,
  notificationsShowPreview: true,
  incomingMessagesSound: true,
});

/** What turning notifications off turns off with them, and turning them back on gives back. */
export type NotificationExtras = Pick<AppSettings, 'notificationsShowPreview' | 'incomingMessagesSound'>;

/**
 * The settings as the engine keeps them: the four, and while notifications are off, the preview and sound
 * the user had when turning them off (null when there is nothing to give back).
 */
export interface SettingsRecord {
  readonly settings: AppSettings;
  readonly beforeOff: NotificationExtras | null;
}

/** What is stored under settings/app: the four flat (as before), with `beforeOff` beside them while off. */
export type StoredSettings = Partial<AppSettings> & { beforeOff?: Partial<NotificationExtras> | null };

const KEYS = Object.keys(DEFAULT_APP_SETTINGS) as (keyof AppSettings)[];
const ALL_ON: NotificationExtras = { notificationsShowPreview: true, incomingMessagesSound: true };

const offExtras = (settings: AppSettings): AppSettings => ({
  ...settings,
  notificationsShowPreview: false,
  incomingMessagesSound: false,
});

/**
 * Applies a change (spec §4 "Other": turning notifications off also turns off previews and sound).
 * Preview and sound cannot be on while notifications are off, so a patch that tries is held to off.
 * Turning notifications off remembers the preview and sound the user had; turning them back on gives
 * those back (both on when nothing is remembered), unless the same patch says otherwise.
 * Returns `prev` itself when nothing changes.
 */
export function applySettings(prev: SettingsRecord, patch: Partial<AppSettings>): SettingsRecord {
  const wanted: AppSettings = { ...prev.settings };
  for (const key of KEYS) {
    const value = patch[key];
    if (typeof value === 'boolean') wanted[key] = value;
  }
  const wasOn = prev.settings.notificationsEnable;
  let next: SettingsRecord;
  if (!wanted.notificationsEnable) {
    const beforeOff = wasOn
      ? { notificationsShowPreview: wanted.notificationsShowPreview, incomingMessagesSound: wanted.incomingMessagesSound }
      : prev.beforeOff;
    next = { settings: offExtras(wanted), beforeOff };
  } else if (!wasOn) {
    const restored = prev.beforeOff ?? ALL_ON;
    next = {
      settings: {
        ...wanted,
        notificationsShowPreview: patch.notificationsShowPreview ?? restored.notificationsShowPreview,
        incomingMessagesSound: patch.incomingMessagesSound ?? restored.incomingMessagesSound,
      },
      beforeOff: null,
    };
  } else {
    next = { settings: wanted, beforeOff: null };
  }
  // What is remembered changes only with notificationsEnable, so comparing the four is enough.
  return KEYS.some((key) => next.settings[key] !== prev.settings[key]) ? next : prev;
}

/**
 * Settings read from storage: unknown or missing fields take the defaults and the rule above holds. A
 * record stored off without `beforeOff` (written before it was kept) gives back both on.
 */
export function normalizeSettings(stored: StoredSettings | null | undefined): SettingsRecord {
  const settings: AppSettings = { ...DEFAULT_APP_SETTINGS };
  for (const key of KEYS) {
    const value = stored?.[key];
    if (typeof value === 'boolean') settings[key] = value;
  }
  if (settings.notificationsEnable) return { settings, beforeOff: null };
  const kept = stored?.beforeOff;
  const beforeOff =
    kept && typeof kept === 'object'
      ? {
          notificationsShowPreview: kept.notificationsShowPreview !== false,
          incomingMessagesSound: kept.incomingMessagesSound !== false,
        }
      : null;
  return { settings: offExtras(settings), beforeOff };
}
