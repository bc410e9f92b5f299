import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import type { SocketLike } from '../../../src/engine/socket';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { startEngine } from '../../../src/worker/startEngine';
import { ManualEngineClock, recordingTransport } from '../engine/support/fakeEngine';

const ACCOUNT = { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' };

/**
 * A signed-in engine on a first store the test can "delete" (as the browser's Clear site data does: the
 * database's connection reports itself lost), and the empty stores opened after it.
 */
async function signedInSetup() {
  const first = new MemoryStorage();
  await first.writeBatch([
    { store: 'session', type: 'put', key: 'auth', value: { token: 't', userId: 1, account: ACCOUNT } },
    { store: 'settings', type: 'put', key: 'app', value: { enterToSend: false } },
    { store: 'drafts', type: 'put', key: '7', value: 'a draft of the old session' },
  ]);
  const opened: MemoryStorage[] = [];
  const lost: (() => void)[] = [];
  const sockets: { closed: boolean }[] = [];
  const socketFactory = () => {
    const record = { closed: false };
    sockets.push(record);
    const socket = {
      send: () => undefined,
      close: () => {
        record.closed = true;
      },
      onopen: null,
      onmessage: null,
      onclose: null,
      onerror: null,
    } as unknown as SocketLike;
    queueMicrotask(() => (socket.onopen as (() => void) | null)?.());
    return socket;
  };
  const clock = new ManualEngineClock();
  const calls: string[] = [];
  let reloads = 0;
  const engine = await startEngine(() => (reloads += 1), {
    openStorage: async (_onVersionChange, onLost) => {
      if (onLost) lost.push(onLost);
      const storage = opened.length === 0 ? first : new MemoryStorage();
      opened.push(storage);
      return storage;
    },
    createEngine: (s) =>
      new Engine({ storage: s, apiBase: 'http://server.test', transport: recordingTransport(calls), socketFactory, clock, log: () => undefined }),
    log: () => undefined,
  });
  await engine.whenStarted();
  await clock.advance(0);
  return { engine, first, opened, lost, sockets, clock, reloads: () => reloads };
}

describe('the worker engine when the browser deletes its database (Clear site data)', () => {
  it('signs out with the reason, on a fresh empty store, and stops its socket without a reload', async () => {
    const setup = await signedInSetup();
    const { engine } = setup;
    expect((await firstValueFrom(engine.session())).status).toBe('ready');
    expect(await firstValueFrom(engine.connection())).toBe('online');
    expect((await firstValueFrom(engine.settings())).enterToSend).toBe(false);

    setup.lost[0]?.();
    await expect
      .poll(() => firstValueFrom(engine.session()))
      .toMatchObject({ status: 'unauthenticated', signedOut: { reason: 'dataCleared' } });
    expect(setup.opened).toHaveLength(2);
    // The session's socket goes with it and does not come back; the tabs are not asked to reload.
    expect(setup.sockets[0]?.closed).toBe(true);
    await setup.clock.advance(60_000);
    expect(setup.sockets).toHaveLength(1);
    expect(setup.reloads()).toBe(0);
    // What it held in memory of the old store goes as at a logout.
    expect((await firstValueFrom(engine.settings())).enterToSend).toBe(true);
    expect(await firstValueFrom(engine.drafts())).toEqual({});

    // It keeps working on the new store (the Client-Token written to it again), not on the deleted one.
    const fresh = setup.opened[1]!;
    await expect.poll(() => fresh.get('meta', 'clientToken')).toEqual(expect.any(String));
    await engine.setDraft(9, 'after the clear');
    expect(await fresh.get('drafts', '9')).toBe('after the clear');
    expect(await setup.first.get('drafts', '9')).toBeUndefined();

    // A new sign-in works, is stored in the new store, and forgets the reason.
    const session = await engine.confirmPin('+46700000001', '1234');
    expect(session.status).toBe('ready');
    expect(await firstValueFrom(engine.session())).not.toHaveProperty('signedOut');
    expect(await fresh.get('session', 'auth')).toMatchObject({ token: 't', userId: 1 });
    await setup.clock.advance(0);
    expect(setup.sockets).toHaveLength(2);
    await engine.stop();
  });

  it('a loss reported twice opens one new store; the new store is watched in turn', async () => {
    const setup = await signedInSetup();
    setup.lost[0]?.();
    setup.lost[0]?.();
    await expect.poll(() => firstValueFrom(setup.engine.session())).toMatchObject({ status: 'unauthenticated' });
    expect(setup.opened).toHaveLength(2);
    setup.lost[1]?.();
    await expect.poll(() => setup.opened.length).toBe(3);
    await setup.engine.setDraft(9, 'third store');
    expect(await setup.opened[2]!.get('drafts', '9')).toBe('third store');
    await setup.engine.stop();
  });
});
