import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import type { SocketLike } from '../../../src/engine/socket';
import { MemoryStorage, type StoreName } from '../../../src/engine/storage/storage';
import { startEngine } from '../../../src/worker/startEngine';
import { conversation, ManualEngineClock } from '../engine/support/fakeEngine';

/** A store whose reads of one store wait until the test lets them go: the stored state loading slowly. */
class HeldStorage extends MemoryStorage {
  private release: (() => void) | null = null;
  private readonly held: Promise<void>;
  /** True once a read of the held store waits: the signed-in parts are being loaded. */
  waiting = false;

  constructor(private readonly heldStore: StoreName) {
    super();
    this.held = new Promise((resolve) => (this.release = resolve));
  }

  letGo(): void {
    this.release?.();
  }

  override async getAll<T>(store: StoreName): Promise<{ key: string; value: T }[]> {
    if (store === this.heldStore) {
      this.waiting = true;
      await this.held;
    }
    return super.getAll<T>(store);
  }
}

/** A network that never answers: whatever shows came from the store. */
const silentNetwork = (calls: string[]): HttpTransport => ({
  request: ({ method, url }) => {
    calls.push(`${method} ${new URL(url).pathname}`);
    return new Promise(() => undefined);
  },
  upload: () => new Promise(() => undefined),
});

async function cachedSetup() {
  const storage = new HeldStorage('conversations');
  await storage.writeBatch([
    { store: 'session', type: 'put', key: 'auth', value: { token: 't', userId: 1, account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } } },
    { store: 'meta', type: 'put', key: 'state', value: { selfId: 1, lastEventId: 0, epoch: '' } },
    { store: 'conversations', type: 'put', key: '7', value: conversation },
  ]);
  const calls: string[] = [];
  let sockets = 0;
  const socketFactory = () => {
    sockets += 1;
    return { send: () => undefined, close: () => undefined, onopen: null, onmessage: null, onclose: null, onerror: null } as unknown as SocketLike;
  };
  const clock = new ManualEngineClock();
  const start = () =>
    startEngine(() => undefined, {
      openStorage: async () => storage,
      createEngine: (s) =>
        new Engine({ storage: s, apiBase: 'http://server.test', transport: silentNetwork(calls), socketFactory, clock, log: () => undefined }),
      log: () => undefined,
    });
  return { storage, calls, start, sockets: () => sockets };
}

describe('a cold start of the worker engine with a cached list (issue 11)', () => {
  it('serves the tabs as soon as the session is read, and shows the stored list with no answer from the network', async () => {
    const setup = await cachedSetup();
    let engine: Engine | null = null;
    void setup.start().then((started) => (engine = started));
    // The tabs get an engine (and the session) while the stored chats are still being read.
    await expect.poll(() => engine).not.toBeNull();
    const started = engine as unknown as Engine;
    expect((await firstValueFrom(started.session())).status).toBe('ready');
    // Asked while the parts read the store, the list waits for it rather than shows an empty one.
    await expect.poll(() => setup.storage.waiting).toBe(true);
    let list: readonly { conversation: { id: number } }[] | null = null;
    started.conversations().subscribe((items) => (list = items));
    expect(list).toBeNull();
    setup.storage.letGo();
    await expect.poll(() => list?.map((item) => item.conversation.id)).toEqual([7]);
    await started.stop();
  });

  it('does not connect when stopped while the signed-in parts were still loading', async () => {
    const setup = await cachedSetup();
    const engine = await setup.start();
    const stopping = engine.stop();
    setup.storage.letGo();
    await stopping;
    await engine.whenStarted().catch(() => undefined);
    expect(setup.sockets()).toBe(0);
    expect(setup.calls).toEqual([]);
  });
});
