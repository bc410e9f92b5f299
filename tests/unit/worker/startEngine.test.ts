import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import type { SocketLike } from '../../../src/engine/socket';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { startEngine } from '../../../src/worker/startEngine';
import { ManualEngineClock, recordingTransport } from '../engine/support/fakeEngine';

/** A signed-in store whose engine connects through sockets the test can count. */
async function signedInSetup() {
  const storage = new MemoryStorage();
  await storage.writeBatch([
    {
      store: 'session',
      type: 'put',
      key: 'auth',
      value: { token: 't', userId: 1, account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } },
    },
  ]);
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
  let versionChange: (() => void) | null = null;
  let reloads = 0;
  const start = () =>
    startEngine(() => (reloads += 1), {
      openStorage: async (onVersionChange) => {
        versionChange = onVersionChange;
        return storage;
      },
      createEngine: (s) =>
        new Engine({ storage: s, apiBase: 'http://server.test', transport: recordingTransport(calls), socketFactory, clock, log: () => undefined }),
      log: () => undefined,
    });
  return {
    start,
    clock,
    calls,
    sockets,
    closeForUpgrade: () => versionChange?.(),
    reloads: () => reloads,
  };
}

describe('the worker engine when its database closes for an upgrade', () => {
  it('stops the engine (socket closed, no reconnect) and asks the tabs to reload', async () => {
    const setup = await signedInSetup();
    const engine = await setup.start();
    // startEngine hands the engine to the tabs once the session is read; the parts connect behind it.
    await engine.whenStarted();
    await setup.clock.advance(0);
    expect(await firstValueFrom(engine.connection())).toBe('online');
    expect(setup.sockets).toHaveLength(1);

    setup.closeForUpgrade();
    expect(setup.reloads()).toBe(1);
    await setup.clock.advance(0);
    expect(await firstValueFrom(engine.connection())).toBe('closed');
    expect(setup.sockets[0]?.closed).toBe(true);
    // No reconnect, and a send is not sent while nothing could record it.
    await setup.clock.advance(60_000);
    expect(setup.sockets).toHaveLength(1);
    await engine.sendMessage(7, { text: 'after the upgrade' }).catch(() => undefined);
    await setup.clock.advance(60_000);
    expect(setup.calls.filter((c) => c.startsWith('POST /v2/conversations/7/messages'))).toEqual([]);
  });

  it('stops an engine whose database closed while it was starting', async () => {
    const setup = await signedInSetup();
    const starting = setup.start();
    setup.closeForUpgrade();
    const engine = await starting;
    await setup.clock.advance(60_000);
    expect(await firstValueFrom(engine.connection())).toBe('closed');
    expect(setup.sockets.every((s) => s.closed)).toBe(true);
    expect(setup.reloads()).toBe(1);
  });
});
