import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { EngineClock } from '../../../src/engine/clock';
import { PERSIST_DELAY_MS } from '../../../src/engine/batchedWriter';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import type { SocketLike } from '../../../src/engine/socket';
import { RECEIPT_RETRY_MS } from '../../../src/engine/receiptSender';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Conversation, Message } from '../../../src/protocol/entities';

/** A clock the test moves by hand: timers fire only when it advances. */
class ManualEngineClock implements EngineClock {
  private t = 1_800_000_000_000;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private nextId = 1;
  now = () => this.t;
  random = () => 0;
  setTimeout = (fn: () => void, ms: number) => {
    const id = this.nextId++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  };
  clearTimeout = (handle: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== handle);
  };
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = this.timers.filter((x) => x.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((x) => x !== due);
      this.t = due.at;
      due.fn();
      await Promise.resolve();
    }
    this.t = end;
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
}

const ok = (data: unknown) => ({ status: 200, json: async () => ({ success: true, data }) });

const conversation = { id: 7, stid: 'c_x', name: 'Erik', messages: [], last_message: null, last_message_time: '0', created_at: '1', unread_message_count: 0, is_unread: false } as unknown as Conversation;
const incoming = (id: number): Message =>
  ({ id, stid: `m_${id}`, client_id: 1, conversation_id: 7, conversation_stid: 'c_x', user_id: 2, message: `hi ${id}`, rich_message: null, type: 'text', created_at: '1800000000', edited_at: 0, updated_at: 0, attachment: null, reactions: [], quoted: null, discussion: null, pinned: false }) as Message;

/** Records every REST call; answers what the engine needs for this scenario. `failReceipts` fails that many first. */
function recordingTransport(calls: string[], options: { failReceipts?: number } = {}): HttpTransport {
  let failures = options.failReceipts ?? 0;
  return {
    async request({ method, url, body }) {
      const path = new URL(url).pathname;
      calls.push(`${method} ${path}${body && path.includes('/messages/') ? ` ${body}` : ''}`);
      if (path.startsWith('/v1/conversations/7/messages/') && failures > 0) {
        failures -= 1;
        throw new TypeError('network down');
      }
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') return ok({ conversations: [{ conversation }] });
      if (path === '/v2/conversations/7/messages') return ok({ messages: [] });
      return ok({ dlrs: [] });
    },
    async upload() {
      throw new Error('not used');
    },
  };
}

/** A socket the test feeds frames into. */
function fakeSocket() {
  let current: SocketLike | null = null;
  const factory = () => {
    const s: SocketLike = { send: () => undefined, close: () => undefined, onopen: null, onmessage: null, onclose: null, onerror: null } as unknown as SocketLike;
    current = s;
    queueMicrotask(() => (s.onopen as (() => void) | null)?.());
    return s;
  };
  const push = (frame: unknown) => (current?.onmessage as ((e: { data: string }) => void) | null)?.({ data: JSON.stringify(frame) });
  return { factory, push };
}

async function signedInEngine(storage: MemoryStorage, calls: string[], clock: ManualEngineClock, failReceipts = 0) {
  const socket = fakeSocket();
  const engine = new Engine({ storage, apiBase: 'http://server.test', transport: recordingTransport(calls, { failReceipts }), socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  if ((await firstValueFrom(engine.session())).status === 'unauthenticated') await engine.confirmPin('+46700000001', '1234');
  await clock.advance(1);
  return { engine, socket };
}

const receiptCalls = (calls: string[]) => calls.filter((c) => c.startsWith('POST /v1/conversations/7/messages/'));

/** Signed in, chat 7 open in a visible and focused tab, and message 100 just came into it by socket. */
async function openChatWithIncoming() {
  const clock = new ManualEngineClock();
  const calls: string[] = [];
  const { engine, socket } = await signedInEngine(new MemoryStorage(), calls, clock);
  engine.setTabState('tab', { visible: true, focused: true, openConversationId: 7 });
  await engine.openConversation(7);
  socket.push({ action: 'socket_loaded', data: { need_sync: false, last_message_id: 0, epoch: 'e1' } });
  socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(100) } });
  return { clock, calls, engine, socket };
}

describe('receipts, driven by an injected clock', () => {
  it('sends delivered at once and read 500 ms later for a message in an open chat, each once', async () => {
    const { clock, calls, engine, socket } = await openChatWithIncoming();
    await clock.advance(0);
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/100 read=false']);
    await clock.advance(499);
    expect(receiptCalls(calls)).toHaveLength(1);
    await clock.advance(1);
    expect(receiptCalls(calls)).toEqual([
      'POST /v1/conversations/7/messages/100 read=false',
      'POST /v1/conversations/7/messages/100 read=true',
    ]);
    // The same event again (a replay) and the message seen on screen send nothing more.
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(100) } });
    engine.markVisible(7, 100);
    await clock.advance(1000);
    expect(receiptCalls(calls)).toHaveLength(2);
    await engine.stop();
  });

  it('does not send the delayed read when the chat closed within the 500 ms: the message stays unread until seen', async () => {
    const { clock, calls, engine } = await openChatWithIncoming();
    await clock.advance(200);
    engine.setTabState('tab', { visible: true, focused: true, openConversationId: null });
    await clock.advance(1000);
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/100 read=false']);
    expect((await firstValueFrom(engine.conversation(7)))?.unreadCount).toBe(1);

    // Opened again: read now, once.
    engine.setTabState('tab', { visible: true, focused: true, openConversationId: 7 });
    await clock.advance(0);
    expect(receiptCalls(calls)).toEqual([
      'POST /v1/conversations/7/messages/100 read=false',
      'POST /v1/conversations/7/messages/100 read=true',
    ]);
    expect((await firstValueFrom(engine.conversation(7)))?.unreadCount).toBe(0);
    await clock.advance(1000);
    expect(receiptCalls(calls)).toHaveLength(2);
    await engine.stop();
  });

  it('sends only delivered for a closed chat, and read once when the message is seen — never again after a reload', async () => {
    const clock = new ManualEngineClock();
    const calls: string[] = [];
    const storage = new MemoryStorage();
    const { engine, socket } = await signedInEngine(storage, calls, clock);
    await engine.openConversation(7);
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(101) } });
    await clock.advance(1000);
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/101 read=false']);
    engine.markVisible(7, 101);
    await clock.advance(PERSIST_DELAY_MS);
    await engine.stop();
    expect(receiptCalls(calls)).toHaveLength(2);

    const again = await signedInEngine(storage, calls, clock);
    again.socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(101) } });
    again.engine.markVisible(7, 101);
    await clock.advance(1000);
    expect(receiptCalls(calls)).toHaveLength(2);
    await again.engine.stop();
  });

  it('keeps a receipt whose call failed and sends it later, also after a restart', async () => {
    const clock = new ManualEngineClock();
    const calls: string[] = [];
    const storage = new MemoryStorage();
    const { engine, socket } = await signedInEngine(storage, calls, clock, 1);
    await engine.openConversation(7);
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message: incoming(300) } });
    await clock.advance(PERSIST_DELAY_MS);
    await engine.stop();
    // The first try failed; the receipt waits in storage with the state that planned it.
    expect(receiptCalls(calls)).toEqual(['POST /v1/conversations/7/messages/300 read=false']);
    expect(await storage.get('meta', 'pendingReceipts')).toHaveLength(1);

    const again = await signedInEngine(storage, calls, clock);
    await clock.advance(RECEIPT_RETRY_MS);
    expect(receiptCalls(calls)).toEqual([
      'POST /v1/conversations/7/messages/300 read=false',
      'POST /v1/conversations/7/messages/300 read=false',
    ]);
    await clock.advance(PERSIST_DELAY_MS);
    await again.engine.flush();
    expect(await storage.get('meta', 'pendingReceipts')).toEqual([]);
    await again.engine.stop();
  });

  it('writes a burst of events in one storage transaction', async () => {
    const clock = new ManualEngineClock();
    const storage = new MemoryStorage();
    const { engine, socket } = await signedInEngine(storage, [], clock);
    await engine.openConversation(7);
    await clock.advance(PERSIST_DELAY_MS);
    const before = storage.batches;
    for (let i = 0; i < 20; i++) {
      socket.push({ action: 'conversation_message', id: i + 1, data: { conversation_id: 7, message: incoming(200 + i) } });
    }
    await clock.advance(PERSIST_DELAY_MS);
    await engine.flush();
    expect(storage.batches - before).toBe(1);
    expect(await storage.get('messages', '219')).toMatchObject({ message: 'hi 219' });
    await engine.stop();
  });
});
