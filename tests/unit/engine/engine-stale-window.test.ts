import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import type { MessageWindowView } from '../../../src/engine/api';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Message } from '../../../src/protocol/entities';
import { conversation, fakeSocket, incoming, ManualEngineClock, ok } from './support/fakeEngine';

/**
 * A cached window that a newer list snapshot leaves behind takes no live message until its latest page
 * is reloaded: the engine reloads it for whoever watches it, open in a tab or not.
 */

/** The server's chat 7: its messages, and the list snapshot that names the latest one. */
function serverChat() {
  const messages: Message[] = [];
  const transport: HttpTransport = {
    async request({ url }) {
      const path = new URL(url).pathname;
      const last = messages[messages.length - 1] ?? null;
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') {
        return ok({ conversations: [{ conversation: { ...conversation, last_message: last, last_message_time: last?.created_at ?? '0' } }] });
      }
      if (path === '/v2/conversations/7/messages') return ok({ messages: [...messages].reverse() });
      if (path === '/v2/conversations/7') return ok({ conversation: { ...conversation, last_message: last, last_message_time: last?.created_at ?? '0' } });
      return ok({ dlrs: [] });
    },
    async upload() {
      throw new Error('not used');
    },
  };
  return { messages, transport };
}

const texts = (view: MessageWindowView) => view.messages.map((m) => m.message);

async function engineWithCachedWindow() {
  const clock = new ManualEngineClock();
  const chat = serverChat();
  chat.messages.push(incoming(100));
  const socket = fakeSocket();
  const engine = new Engine({ storage: new MemoryStorage(), apiBase: 'http://server.test', transport: chat.transport, socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  await engine.confirmPin('+46700000001', '1234');
  await engine.openConversation(7);
  await clock.advance(1);
  expect(texts(await firstValueFrom(engine.messages(7)))).toEqual(['hi 100']);
  // Messages come while this engine does not hear them (another leader held the socket, say).
  chat.messages.push(incoming(101), incoming(102));
  return { clock, chat, socket, engine };
}

describe('a cached window behind the list', () => {
  it('is reloaded by a list refresh while subscribed, though no tab has the chat open, and then takes live messages', async () => {
    const { clock, socket, engine } = await engineWithCachedWindow();
    let latest: MessageWindowView | null = null;
    const subscription = engine.messages(7).subscribe((view) => (latest = view));

    await engine.refreshConversations();
    await clock.advance(1);
    expect(texts(latest!)).toEqual(['hi 100', 'hi 101', 'hi 102']);

    socket.push({ action: 'conversation_message', id: 9, data: { conversation_id: 7, message: incoming(103) } });
    expect(texts(latest!)).toEqual(['hi 100', 'hi 101', 'hi 102', 'hi 103']);
    subscription.unsubscribe();
    await engine.stop();
  });

  it('left behind with no one watching, is reloaded when it is subscribed to again', async () => {
    const { clock, socket, engine } = await engineWithCachedWindow();
    await engine.refreshConversations();
    await clock.advance(1);

    let latest: MessageWindowView | null = null;
    const subscription = engine.messages(7).subscribe((view) => (latest = view));
    await clock.advance(1);
    expect(texts(latest!)).toEqual(['hi 100', 'hi 101', 'hi 102']);
    socket.push({ action: 'conversation_message', id: 9, data: { conversation_id: 7, message: incoming(103) } });
    expect(texts(latest!)).toEqual(['hi 100', 'hi 101', 'hi 102', 'hi 103']);
    subscription.unsubscribe();
    await engine.stop();
  });
});
