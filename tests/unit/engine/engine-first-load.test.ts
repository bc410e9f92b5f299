import { firstValueFrom, filter, type Observable } from 'rxjs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { Engine } from '../../../src/engine/engine';
import { fetchTransport, type HttpTransport } from '../../../src/engine/rest';
import type { SocketLike } from '../../../src/engine/socket';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { nextPhone, startTestServer, TEST_PIN, type TestServer } from '../../support/server';

const wsFactory = (url: string) => new WebSocket(url) as unknown as SocketLike;
const until = <T>(source: Observable<T>, test: (v: T) => boolean) => firstValueFrom(source.pipe(filter(test)));

let s: TestServer;
const engines: Engine[] = [];
beforeAll(async () => {
  s = await startTestServer();
});
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.stop()));
});
afterAll(() => s?.close());

async function signedIn(transport: HttpTransport, nickname: string): Promise<{ engine: Engine; phone: string }> {
  const engine = new Engine({ storage: new MemoryStorage(), apiBase: s.url, transport, socketFactory: wsFactory, log: () => undefined });
  engines.push(engine);
  await engine.start();
  const phone = nextPhone();
  await engine.requestPin(phone);
  await engine.confirmPin(phone, TEST_PIN);
  await engine.register(nickname);
  await until(engine.connection(), (c) => c === 'online');
  return { engine, phone };
}

describe('the first page of a chat never opened', () => {
  it('keeps a message that arrived by socket while the page was on its way', async () => {
    // The page answer is held back until `beforeAnswer` ran: the server answered before the message existed.
    let beforeAnswer: (() => Promise<void>) | null = null;
    const transport: HttpTransport = {
      request: async (request) => {
        const response = await fetchTransport.request(request);
        const hold = beforeAnswer;
        if (hold && request.method === 'GET' && /\/messages$/.test(request.url)) {
          beforeAnswer = null;
          const body = await response.json();
          await hold();
          return { status: response.status, json: async () => body };
        }
        return response;
      },
      upload: (request) => fetchTransport.upload(request),
    };
    const anna = await signedIn(transport, 'Anna');
    const erik = await signedIn(fetchTransport, 'Erik');
    const { conversation } = await erik.engine.call('createConversation', { members: [{ name: 'Anna', value: anna.phone }] });
    await erik.engine.call('sendMessage', conversation.id, { clientId: 1, message: 'one' });
    await until(anna.engine.conversation(conversation.id), (c) => c?.conversation.last_message?.message === 'one');

    beforeAnswer = async () => {
      await erik.engine.call('sendMessage', conversation.id, { clientId: 2, message: 'two' });
      await until(anna.engine.conversation(conversation.id), (c) => c?.conversation.last_message?.message === 'two');
    };
    await anna.engine.openConversation(conversation.id);
    expect(beforeAnswer).toBeNull();
    const view = await firstValueFrom(anna.engine.messages(conversation.id));
    expect(view.messages.map((m) => m.message)).toEqual(['one', 'two']);

    // And the window goes on taking new messages.
    await erik.engine.call('sendMessage', conversation.id, { clientId: 3, message: 'three' });
    await until(anna.engine.messages(conversation.id), (w) => w.messages.map((m) => m.message).join() === 'one,two,three');
  });
});
