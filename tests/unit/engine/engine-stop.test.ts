import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import type { HttpRequest, HttpTransport } from '../../../src/engine/rest/transport';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { conversation, fakeSocket, incoming, ManualEngineClock, ok } from './support/fakeEngine';

/**
 * A transport that answers the sign-in at once and holds the calls a test names: a held call is answered
 * when the test says so, whether or not its signal was aborted (an answer already on its way), unless
 * `honourAbort`, where it fails on abort as fetch does.
 */
function holdingTransport(held: (path: string) => boolean, honourAbort = false) {
  const waiting: { request: HttpRequest; answer: () => void }[] = [];
  const sent: string[] = [];
  const transport: HttpTransport = {
    request(request) {
      const path = new URL(request.url).pathname;
      sent.push(`${request.method} ${path}`);
      const answer = (late = false) => {
        // A late list has a chat the stopped engine has not seen: it would have something to write.
        if (late && path === '/v2/conversations') return ok({ conversations: [{ conversation }, { conversation: { ...conversation, id: 8, name: 'Sara' } }] });
        if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
        if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
        if (path === '/v2/conversations') return ok({ conversations: [{ conversation }] });
        if (path === '/v2/conversations/7/messages') return ok({ messages: [] });
        return ok({ dlrs: [] });
      };
      if (!held(path)) return Promise.resolve(answer());
      return new Promise((resolve, reject) => {
        waiting.push({ request, answer: () => resolve(answer(true)) });
        if (honourAbort) request.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    },
    upload: () => Promise.reject(new Error('not used')),
  };
  return { transport, waiting, sent };
}

async function signedIn(transport: HttpTransport, storage: MemoryStorage, clock: ManualEngineClock) {
  const socket = fakeSocket();
  const engine = new Engine({ storage, apiBase: 'http://server.test', transport, socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  await engine.confirmPin('+46700000001', '1234');
  await clock.advance(1);
  return { engine, socket };
}

describe('a stopped engine (issue 14: another engine may own the store from then on)', () => {
  it('aborts its calls in flight, and an answer that comes anyway writes nothing', async () => {
    const clock = new ManualEngineClock();
    const storage = new MemoryStorage();
    let holding = false;
    const { transport, waiting } = holdingTransport((path) => holding && path === '/v2/conversations');
    const { engine } = await signedIn(transport, storage, clock);
    await clock.advance(100);
    await engine.flush();

    holding = true;
    const refresh = engine.refreshConversations().catch(() => 'refused');
    await expect.poll(() => waiting.length).toBe(1);
    await engine.stop();
    expect(waiting[0]?.request.signal?.aborted).toBe(true);
    const writesAtStop = storage.batches;

    waiting[0]?.answer();
    await refresh;
    await clock.advance(10_000);
    await engine.flush().catch(() => undefined);
    expect(storage.batches).toBe(writesAtStop);
  });

  it('stops a receipt loop that is sending, and sends no receipt after it', async () => {
    const clock = new ManualEngineClock();
    const storage = new MemoryStorage();
    const { transport, waiting, sent } = holdingTransport((path) => path.startsWith('/v1/conversations/7/messages/'), true);
    const { engine, socket } = await signedIn(transport, storage, clock);
    await engine.openConversation(7);
    socket.push({ action: 'socket_loaded', data: { need_sync: false, last_message_id: 0, epoch: 'e1' } });
    // Two messages from Erik: two delivered receipts to send, one at a time.
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(101) } });
    socket.push({ action: 'conversation_message', id: 2, data: { conversation_id: 7, message: incoming(102) } });
    await clock.advance(1);
    await expect.poll(() => waiting.length).toBe(1);

    await engine.stop();
    const receiptsSent = () => sent.filter((s) => s.startsWith('POST /v1/conversations/7/messages/')).length;
    expect(receiptsSent()).toBe(1);
    await clock.advance(60_000);
    expect(receiptsSent()).toBe(1);
    // Both stay in storage for the next engine.
    expect(await storage.get('meta', 'pendingReceipts')).toEqual([
      expect.objectContaining({ messageId: 101, kind: 'delivered' }),
      expect.objectContaining({ messageId: 102, kind: 'delivered' }),
    ]);
  });
});
