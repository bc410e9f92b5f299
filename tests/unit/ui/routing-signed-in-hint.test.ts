import { describe, expect, it } from 'vitest';
import type { SessionView } from '../../../src/engine/api';
import { mainScreenLikely, mirrorSession } from '../../../src/ui/routing/signedInHint';

/** localStorage's interface over a Map: the mirror is all these read and write. */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

const ready: SessionView = { status: 'ready', userId: 1, nickname: 'Anna', phone: '+46700000001', countryCode: '46', avatarUrl: null };

describe('the signed-in mirror a start reads to fetch the main screen early (issue 11)', () => {
  it('fetches the main screen on its paths once a ready session was seen, and not after sign-out', () => {
    const storage = memoryStorage();
    expect(mainScreenLikely('/inbox', storage)).toBe(false);
    mirrorSession(ready, storage);
    expect(mainScreenLikely('/inbox', storage)).toBe(true);
    expect(mainScreenLikely('/', storage)).toBe(true);
    expect(mainScreenLikely('/inbox/7', storage)).toBe(true);
    mirrorSession({ status: 'unauthenticated' }, storage);
    expect(mainScreenLikely('/inbox', storage)).toBe(false);
  });

  it('never on the screens without sign-in, nor for a user still choosing a nickname', () => {
    const storage = memoryStorage();
    mirrorSession(ready, storage);
    for (const path of ['/login', '/nickname', '/satir', '/satir-nickname', '/debug']) expect(mainScreenLikely(path, storage)).toBe(false);
    mirrorSession({ status: 'needsNickname', userId: 1, phone: '+46700000001', countryCode: '46' }, storage);
    expect(mainScreenLikely('/inbox', storage)).toBe(false);
  });
});
