import { describe, expect, it } from 'vitest';
import type { AppSettings } from '../../../src/engine/api';
import {
  DEFAULT_APP_SETTINGS,
  applySettings,
  normalizeSettings,
  type SettingsRecord,
} from '../../../src/engine/rules/settings';

const fresh = (): SettingsRecord => normalizeSettings(null);
/** Applies each patch in turn. */
const after = (start: SettingsRecord, ...patches: Partial<AppSettings>[]) => patches.reduce(applySettings, start);
const extras = ({ settings }: SettingsRecord) => [settings.notificationsShowPreview, settings.incomingMessagesSound];

describe('app settings', () => {
  it('all four default to on', () => {
    expect(DEFAULT_APP_SETTINGS).toEqual({
      enterToSend: true,
      notificationsEnable: true,
      notificationsShowPreview: true,
      incomingMessagesSound: true,
    });
    expect(fresh()).toEqual({ settings: DEFAULT_APP_SETTINGS, beforeOff: null });
  });

  it('turning notifications off turns preview and sound off, and remembers them', () => {
    const off = after(fresh(), { incomingMessagesSound: false }, { notificationsEnable: false });
    expect(off.settings).toEqual({
      enterToSend: true,
      notificationsEnable: false,
      notificationsShowPreview: false,
      incomingMessagesSound: false,
    });
    expect(off.beforeOff).toEqual({ notificationsShowPreview: true, incomingMessagesSound: false });
  });

  it('turning them back on gives back what the user had', () => {
    for (const [preview, sound] of [
      [true, true],
      [true, false],
      [false, true],
      [false, false],
    ]) {
      const had = after(fresh(), { notificationsShowPreview: preview, incomingMessagesSound: sound });
      const roundTrip = after(had, { notificationsEnable: false }, { notificationsEnable: true });
      expect(roundTrip.settings).toEqual(had.settings);
      expect(roundTrip.beforeOff).toBeNull();
    }
  });

  it('a patch that turns them on and sets preview or sound wins over what was remembered', () => {
    const off = after(fresh(), { notificationsEnable: false });
    expect(extras(applySettings(off, { notificationsEnable: true, incomingMessagesSound: false }))).toEqual([true, false]);
  });

  it('preview and sound stay off while notifications are off, and do not change what comes back', () => {
    const off = after(fresh(), { notificationsShowPreview: false }, { notificationsEnable: false });
    expect(applySettings(off, { incomingMessagesSound: true })).toBe(off);
    expect(applySettings(off, { notificationsEnable: false })).toBe(off);
    const changed = applySettings(off, { enterToSend: false });
    expect(changed.beforeOff).toEqual(off.beforeOff);
    expect(extras(applySettings(changed, { notificationsEnable: true }))).toEqual([false, true]);
  });

  it('other settings change alone; no change returns the same record', () => {
    const start = fresh();
    expect(applySettings(start, { enterToSend: false }).settings.enterToSend).toBe(false);
    expect(applySettings(start, { notificationsShowPreview: false }).settings.incomingMessagesSound).toBe(true);
    expect(applySettings(start, { enterToSend: true })).toBe(start);
  });

  it('stored settings are completed with defaults and obey the rule', () => {
    expect(normalizeSettings(undefined).settings).toEqual(DEFAULT_APP_SETTINGS);
    expect(normalizeSettings({ notificationsEnable: false, incomingMessagesSound: true }).settings).toMatchObject({
      notificationsEnable: false,
      incomingMessagesSound: false,
      enterToSend: true,
    });
    // Stored as it is written: the four flat, what comes back beside them.
    const stored = { ...DEFAULT_APP_SETTINGS, notificationsEnable: false, notificationsShowPreview: false, incomingMessagesSound: false };
    const kept = normalizeSettings({ ...stored, beforeOff: { notificationsShowPreview: false, incomingMessagesSound: true } });
    expect(extras(applySettings(kept, { notificationsEnable: true }))).toEqual([false, true]);
    // Off with nothing remembered (stored before it was kept): both come back on, the first time.
    expect(extras(applySettings(normalizeSettings(stored), { notificationsEnable: true }))).toEqual([true, true]);
    // Something remembered while on means nothing.
    expect(normalizeSettings({ beforeOff: { notificationsShowPreview: false } }).beforeOff).toBeNull();
  });
});
