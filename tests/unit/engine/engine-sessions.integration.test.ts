import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { fetchTransport, type HttpTransport } from '../../../src/engine/rest';
import type { StoredAuth } from '../../../src/engine/session/session';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { call, useTestServer } from '../../support/server';
import { until, useEngines } from './support/liveEngines';

/**
 * Sessions that end (docs/ui.md "Sessions"): the engine's logout ends its token on the server, and offline
 * still signs out here; the account page's list and ends; a session ended elsewhere signs this engine out at
 * once (its socket is closed), with the `sessionEnded` notice.
 */

const s = useTestServer();
const { signedInEngine } = useEngines(s);

const tokenOf = async (storage: MemoryStorage) => (await storage.get<StoredAuth>('session', 'auth'))!.token;
/** `promise`, or a failure when it takes longer than `ms`. */
const within = <T>(ms: number, promise: Promise<T>): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms))]);
const meStatus = async (token: string) => (await call(s.url, 'GET', '/v1/me', { token })).status;

describe('sessions in the engine', () => {
  it('logout ends the token on the server, and signs out without a notice', async () => {
    const storage = new MemoryStorage();
    const { engine } = await signedInEngine('Leaver', { storage });
    const token = await tokenOf(storage);
    expect(await meStatus(token)).toBe(200);
    await engine.logout();
    expect(await firstValueFrom(engine.session())).toEqual({ status: 'unauthenticated' });
    expect(await meStatus(token)).toBe(401);
  });

  it('logout without the server still signs out here (the token then ends when idle)', async () => {
    const storage = new MemoryStorage();
    const offlineLogout: HttpTransport = {
      request: (request) =>
        request.url.endsWith('/v1/auth/logout') ? Promise.reject(new TypeError('Failed to fetch')) : fetchTransport.request(request),
      upload: (request) => fetchTransport.upload(request),
    };
    const { engine } = await signedInEngine('Offline', { storage, transport: offlineLogout });
    const token = await tokenOf(storage);
    await engine.logout();
    expect(await firstValueFrom(engine.session())).toEqual({ status: 'unauthenticated' });
    expect(await meStatus(token)).toBe(200);
  });

  it('lists both sessions, and ending the other signs that engine out at once with the notice', async () => {
    const laptop = await signedInEngine('Twice');
    const phone = await signedInEngine(null, { phone: laptop.phone });
    const list = await laptop.engine.sessions();
    expect(list).toHaveLength(2);
    const mine = list.find((entry) => entry.current)!;
    const other = list.find((entry) => !entry.current)!;
    expect(mine.id).not.toBe(other.id);
    expect(typeof other.lastActiveAt).toBe('number');

    await laptop.engine.endSession(other.id);
    // No request of its own: the closed socket makes it ask at once (not after its reconnect delay of 3 s
    // and a refused handshake), and the 401 signs it out.
    const out = await within(1500, until(phone.engine.session(), (v) => v.status === 'unauthenticated'));
    expect(out).toEqual({ status: 'unauthenticated', signedOut: { reason: 'sessionEnded', phone: laptop.phone } });
    expect((await laptop.engine.sessions()).map((entry) => entry.id)).toEqual([mine.id]);
  });

  it('ends all other sessions', async () => {
    const first = await signedInEngine('Many');
    const second = await signedInEngine(null, { phone: first.phone });
    const third = await signedInEngine(null, { phone: first.phone });
    expect(await first.engine.endOtherSessions()).toBe(2);
    for (const { engine } of [second, third]) await until(engine.session(), (v) => v.status === 'unauthenticated');
    expect((await firstValueFrom(first.engine.session())).status).toBe('ready');
  });
});
