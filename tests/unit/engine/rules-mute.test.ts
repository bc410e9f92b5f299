import { describe, expect, it } from 'vitest';
import { isMuted, muteEndsAt } from '../../../src/engine/rules/mute';

const NOW = 1_700_000_000_000;

describe('isMuted', () => {
  it('is false without a mute, or for a conversation cached before mutes existed', () => {
    expect(isMuted(null, NOW)).toBe(false);
    expect(isMuted(undefined, NOW)).toBe(false);
  });

  it('lasts forever without an end', () => {
    expect(isMuted({ type: 'forever', time_zone: 'UTC', until: null }, NOW)).toBe(true);
    expect(muteEndsAt({ type: 'forever', time_zone: 'UTC', until: null })).toBeNull();
  });

  it('ends at `until` (epoch seconds) without another call', () => {
    const mute = { type: '8h' as const, time_zone: 'Europe/Stockholm', until: String(NOW / 1000 + 60) };
    expect(muteEndsAt(mute)).toBe(NOW + 60_000);
    expect(isMuted(mute, NOW)).toBe(true);
    expect(isMuted(mute, NOW + 59_999)).toBe(true);
    expect(isMuted(mute, NOW + 60_000)).toBe(false);
  });
});
