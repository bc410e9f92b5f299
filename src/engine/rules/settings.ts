/** App settings (spec §3): four booleans, all on by default. */
export interface AppSettings {
  enterToSend: boolean;
  notificationsEnable: boolean;
  notificationsShowPreview: boolean;
  incomingMessagesSound: boolean;
}

export const DEFAULT_APP_SETTINGS: Readonly<AppSettings> = Object.freeze({
  enterToSend: true,
  notificationsEnable: true,
  notificationsShowPreview: true,
  incomingMessagesSound: true,
});

/**
 * Applies a change (spec §4 "Other": turning notifications off also turns off previews and sound).
 * Preview and sound cannot be on while notifications are off, so a patch that tries is held to off;
 * turning notifications back on leaves them off until the user turns them on again (nothing is
 * switched on that the user did not switch on). Returns `prev` itself when nothing changes.
 */
export function applySettings(prev: AppSettings, patch: Partial<AppSettings>): AppSettings {
  const next: AppSettings = { ...prev };
  for (const key of Object.keys(DEFAULT_APP_SETTINGS) as (keyof AppSettings)[]) {
    const value = patch[key];
    if (typeof value === 'boolean') next[key] = value;
  }
  if (!next.notificationsEnable) {
    next.notificationsShowPreview = false;
    next.incomingMessagesSound = false;
  }
  const changed = (Object.keys(next) as (keyof AppSettings)[]).some((key) => next[key] !== prev[key]);
  return changed ? next : prev;
}

/** Settings read from storage: unknown or missing fields take the defaults, and the rule above holds. */
export function normalizeSettings(stored: Partial<AppSettings> | null | undefined): AppSettings {
  return applySettings({ ...DEFAULT_APP_SETTINGS }, stored ?? {});
}
