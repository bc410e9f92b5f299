import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine';
import { isEngineError } from '../../../src/engine/errors';
import type { HttpTransport } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { conversation, fakeSocket, incoming, ManualEngineClock, ok } from './support/fakeEngine';

/**
 * Opening a chat (spec §2 /inbox/{id}): the latest page, and the chat itself when the engine does not know
 * it yet, so a chat that cannot load rejects with the call that failed (spec §8).
 */

type Answer = { status: number; json: () => Promise<unknown> };
const refused = (status: number, message?: string): Answer => ({
  status,
  json: async () => ({ success: false, status, ...(message ? { message } : {}) }),
});

function server(options: { listed: boolean; chat?: Answer; page?: Answer }) {
  const calls: string[] = [];
  const transport: HttpTransport = {
    async request({ method, url }) {
      const path = new URL(url).pathname;
      calls.push(`${method} ${path}`);
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') return ok({ conversations: options.listed ? [{ conversation }] : [] });
      if (path === '/v2/conversations/7') return options.chat ?? ok({ conversation });
      if (path === '/v2/conversations/7/messages') return options.page ?? ok({ messages: [incoming(100)] });
      return ok({ dlrs: [] });
    },
    async upload() {
      throw new Error('not used');
    },
  };
  return { calls, transport };
}

async function signedIn(options: Parameters<typeof server>[0]) {
  const { calls, transport } = server(options);
  const clock = new ManualEngineClock();
  const engine = new Engine({ storage: new MemoryStorage(), apiBase: 'http://server.test', transport, socketFactory: fakeSocket().factory, clock, log: () => undefined });
  await engine.start();
  await engine.confirmPin('+46700000001', '1234');
  if (options.listed) await engine.refreshConversations();
  return { engine, calls };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('it did not reject');
}

describe('opening a chat', () => {
  it('fetches a chat the engine does not know yet with its latest page', async () => {
    const { engine, calls } = await signedIn({ listed: false });
    expect(await firstValueFrom(engine.conversation(7))).toBeNull();
    await engine.openConversation(7);
    expect(calls).toContain('GET /v2/conversations/7');
    expect((await firstValueFrom(engine.conversation(7)))?.conversation.name).toBe('Erik');
    expect((await firstValueFrom(engine.messages(7))).messages.map((m) => m.id)).toEqual([100]);
    await engine.stop();
  });

  it('does not fetch a chat the list already has', async () => {
    const { engine, calls } = await signedIn({ listed: true });
    await engine.openConversation(7);
    expect(calls).not.toContain('GET /v2/conversations/7');
    await engine.stop();
  });

  it("rejects with 'Failed to fetch conversation' when the chat's own call is refused without a message", async () => {
    const { engine } = await signedIn({ listed: false, chat: refused(500) });
    const error = await rejection(engine.openConversation(7));
    expect(isEngineError(error) && { status: error.status, message: error.message }).toEqual({
      status: 500,
      message: 'Failed to fetch conversation',
    });
    await engine.stop();
  });

  it("rejects with 'Failed to fetch conversation messages' when the page is refused", async () => {
    const { engine } = await signedIn({ listed: true, page: refused(503) });
    const error = await rejection(engine.openConversation(7));
    expect(isEngineError(error) && error.message).toBe('Failed to fetch conversation messages');
    await engine.stop();
  });

  it('passes on a 404 for a chat that is not the user’s', async () => {
    const gone = refused(404, 'Conversation not found');
    const { engine } = await signedIn({ listed: false, chat: gone, page: gone });
    const error = await rejection(engine.openConversation(7));
    expect(isEngineError(error) && { status: error.status, message: error.message }).toEqual({
      status: 404,
      message: 'Conversation not found',
    });
    await engine.stop();
  });

  it("rejects with 'Invalid conversation ID provided' for an id that is no id, asking the server nothing", async () => {
    const { engine, calls } = await signedIn({ listed: false });
    const before = calls.length;
    const error = await rejection(engine.openConversation(0));
    expect(isEngineError(error) && error.message).toBe('Invalid conversation ID provided');
    expect(calls.slice(before)).toEqual([]);
    await engine.stop();
  });
});
