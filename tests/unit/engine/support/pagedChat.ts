import { firstValueFrom } from 'rxjs';
import { expect } from 'vitest';
import { Engine } from '../../../../src/engine/engine';
import type { HttpTransport } from '../../../../src/engine/rest';
import { PERSIST_STREAM_DELAY_MS } from '../../../../src/engine/storage/batchedWriter';
import { MemoryStorage } from '../../../../src/engine/storage/storage';
import type { Message } from '../../../../src/protocol/entities';
import { conversation, fakeSocket, incoming, ManualEngineClock, ok } from './fakeEngine';

/** The tab whose reader the history tests move. */
export const TAB = 'tab-1';

/**
 * The server's chat 7 with messages 1…count, paged by Before, After and Message-Count as the reference server
 * does. With `hiddenLast`, the chat's last message is one this reader hid: no page ever holds it. With `unread`,
 * the server counts that many of them unread for this reader.
 */
export function serverChat(count: number, { hiddenLast = false, unread = 0 } = {}) {
  const messages: Message[] = Array.from({ length: count }, (_, i) => incoming(i + 1));
  const hidden = hiddenLast ? incoming(count + 1) : null;
  /** Every page asked for: its Before and After (null when not sent) and count. */
  const pages: { before: number | null; after: number | null; count: number }[] = [];
  /** While `older` is true, every older page (a Before) is refused with a 500, as a server in trouble. */
  const down = { older: false };
  const transport: HttpTransport = {
    async request({ url, headers }) {
      const path = new URL(url).pathname;
      const last = hidden ?? messages[messages.length - 1] ?? null;
      const chat = {
        ...conversation,
        last_message: last,
        last_message_time: last?.created_at ?? '0',
        unread_message_count: unread,
        is_unread: unread > 0,
      };
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') return ok({ conversations: [{ conversation: chat }] });
      if (path === '/v2/conversations/7') return ok({ conversation: chat });
      if (path === '/v2/conversations/7/messages') {
        const size = Number(headers['Message-Count'] ?? 20);
        const before = headers.Before === undefined ? null : Number(headers.Before);
        const after = headers.After === undefined ? null : Number(headers.After);
        pages.push({ before, after, count: size });
        if (down.older && before !== null) return { status: 500, json: async () => ({ success: false, status: 500 }) };
        if (after !== null) return ok({ messages: messages.filter((m) => m.id > after).slice(0, size) });
        return ok({ messages: messages.filter((m) => before === null || m.id < before).slice(-size) });
      }
      return ok({ dlrs: [] });
    },
    async upload() {
      throw new Error('not used');
    },
  };
  return { messages, pages, transport, down };
}

/** Lets every answer and dispatch in flight run (the fake server answers at once). */
export async function settle() {
  for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** An engine signed in to a server with chat 7 (`serverChat`), its list loaded, the chat not opened yet. */
export async function signedInWithChat(count = 1000, options: { hiddenLast?: boolean; unread?: number } = {}) {
  const clock = new ManualEngineClock();
  const chat = serverChat(count, options);
  const socket = fakeSocket();
  const storage = new MemoryStorage();
  const engine = new Engine({ storage, apiBase: 'http://server.test', transport: chat.transport, socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  await engine.confirmPin('+46700000001', '1234');
  await engine.refreshConversations();
  const view = () => firstValueFrom(engine.messages(7));
  const ids = async () => (await view()).messages.map((m) => m.id);
  /** The reader shows messages `oldest`…`oldest + 9`. */
  const show = async (oldest: number) => {
    engine.setViewport(TAB, 7, { oldestId: oldest, newestId: oldest + 9 });
    await settle();
    // The trimmed pages go to IndexedDB with the state's next write.
    await clock.advance(PERSIST_STREAM_DELAY_MS);
    await settle();
  };
  /** Messages `from`…`to` are sent to the chat: on the server, and live on the socket, at once. */
  const arrive = (from: number, to: number) => {
    for (let id = from; id <= to; id++) {
      const message = incoming(id);
      chat.messages.push(message);
      socket.push({ action: 'conversation_message', id: id - 1000, data: { conversation_id: 7, message } });
    }
  };
  return { clock, chat, socket, storage, engine, view, ids, show, arrive };
}

/** The window holds one unbroken run of history: no gap, no message twice. */
export function expectRun(ids: readonly number[]) {
  expect(ids.every((id, i) => i === 0 || id === (ids[i - 1] as number) + 1)).toBe(true);
}
