import { filter, firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import { PERSIST_STREAM_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { fakeSocket, incoming, ManualEngineClock, ok, recordingTransport } from './support/fakeEngine';

/**
 * The browser ends a SharedWorker with its last page, and a hidden tab may be discarded without a pagehide:
 * a batch still waiting on the write timer would go with the worker. So a tab going away or hidden writes it
 * at once, without the clock moving.
 */

/** Chat 7's transport, which also stores a sent text as message 200 (the sender's own). */
function sendingTransport(): HttpTransport {
  const base = recordingTransport([]);
  return {
    ...base,
    request(request) {
      const path = new URL(request.url).pathname;
      if (request.method !== 'POST' || path !== '/v2/conversations/7/messages') return base.request(request);
      const { client_id, message } = JSON.parse(request.body ?? '{}') as { client_id: number; message: string };
      return Promise.resolve(ok({ message: { ...incoming(200), user_id: 1, client_id, message } }));
    },
  };
}

/** Signed in, chat 7 open in a visible tab, and "hello" sent and stored: its batch waits on the timer. */
async function sentInOpenChat() {
  const clock = new ManualEngineClock();
  const storage = new MemoryStorage();
  const socket = fakeSocket();
  const engine = new Engine({ storage, apiBase: 'http://server.test', transport: sendingTransport(), socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  await engine.confirmPin('+46700000001', '1234');
  await clock.advance(1);
  engine.setTabState('tab', { visible: true, focused: true, openConversationId: 7 });
  await engine.openConversation(7);
  // What came before the send is written: what waits afterwards is the message's batch alone.
  await clock.advance(PERSIST_STREAM_DELAY_MS);
  await engine.flush();

  await engine.sendMessage(7, { text: 'hello' });
  await firstValueFrom(engine.messages(7).pipe(filter((v) => v.messages.some((m) => m.id === 200))));
  expect(await storage.get('messages', '200')).toBeUndefined();
  return { engine, storage };
}

/** What a reload would restore of chat 7: the message row, and the window listing it. */
async function expectStored(storage: MemoryStorage) {
  await expect.poll(() => storage.get('messages', '200')).toMatchObject({ id: 200, message: 'hello' });
  const windows = await storage.get<Record<number, { ids: number[] }>>('meta', 'windows');
  expect(windows?.[7]?.ids).toContain(200);
}

describe('a batch waiting on the write timer', () => {
  it('is written when a tab closes (it may be the last, and the worker ends with it)', async () => {
    const { engine, storage } = await sentInOpenChat();
    engine.closeTab('tab');
    await expectStored(storage);
    await engine.stop();
  });

  it('is written when a visible tab is hidden (it may be discarded without a pagehide)', async () => {
    const { engine, storage } = await sentInOpenChat();
    engine.setTabState('tab', { visible: false, focused: false, openConversationId: 7 });
    await expectStored(storage);
    await engine.stop();
  });
});
