import { describe, expect, it } from 'vitest';
import { DEFAULT_APP_SETTINGS, applySettings, normalizeSettings } from '../../../src/engine/rules/settings';

describe('app settings', () => {
  it('all four default to on', () => {
    expect(DEFAULT_APP_SETTINGS).toEqual({
      enterToSend: true,
      notificationsEnable: true,
      notificationsShowPreview: true,
      incomingMessagesSound: true,
    });
  });

  it('turning notifications off turns preview and sound off', () => {
    expect(applySettings(DEFAULT_APP_SETTINGS, { notificationsEnable: false })).toEqual({
      enterToSend: true,
      notificationsEnable: false,
      notificationsShowPreview: false,
      incomingMessagesSound: false,
    });
  });

  it('preview and sound stay off while notifications are off', () => {
    const off = applySettings(DEFAULT_APP_SETTINGS, { notificationsEnable: false });
    expect(applySettings(off, { incomingMessagesSound: true })).toBe(off);
    const on = applySettings(off, { notificationsEnable: true });
    expect(on).toMatchObject({ notificationsEnable: true, notificationsShowPreview: false, incomingMessagesSound: false });
    expect(applySettings(on, { incomingMessagesSound: true }).incomingMessagesSound).toBe(true);
  });

  it('other settings change alone; no change returns the same object', () => {
    expect(applySettings(DEFAULT_APP_SETTINGS, { enterToSend: false }).enterToSend).toBe(false);
    expect(applySettings(DEFAULT_APP_SETTINGS, { notificationsShowPreview: false }).incomingMessagesSound).toBe(true);
    expect(applySettings(DEFAULT_APP_SETTINGS, { enterToSend: true })).toBe(DEFAULT_APP_SETTINGS);
  });

  it('stored settings are completed with defaults and obey the rule', () => {
    expect(normalizeSettings(undefined)).toEqual(DEFAULT_APP_SETTINGS);
    expect(normalizeSettings({ notificationsEnable: false, incomingMessagesSound: true })).toMatchObject({
      notificationsEnable: false,
      incomingMessagesSound: false,
      enterToSend: true,
    });
  });
});
