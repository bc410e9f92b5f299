import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../src/engine/messages/outbox';
import { createRestClient, fetchTransport, type HttpTransport, type RestClient } from '../../../src/engine/rest';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Message } from '../../../src/protocol/entities';
import { ManualClock } from '../../../server/clock';
import { sql } from '../../../server/db/store';
import { insertConversation } from '../../support/fixtures';
import { useTestServer, useUsers } from '../../support/server';
import { manualClock } from '../worker/manualClock';

/**
 * Issue 12: a user who sends too fast gets 429 with Retry-After, and the outbox waits that long before it
 * tries again, then delivers every message once, in order. The server's and the engine's clocks are both
 * injected and moved together, so the waits are exact and nothing sleeps.
 */

const serverClock = new ManualClock();
// Two sends in hand, one back every 5 s.
const s = useTestServer({ sendRateLimit: 2, sendRateWindowMs: 10_000 }, { clock: serverClock });
const [anna, bo] = useUsers(s, 'Anna', 'Bo');

async function setup() {
  const conversation = await insertConversation(s.server.ctx.db, { members: [anna.id, bo.id] });
  const manual = manualClock();
  const { advance } = manual;
  // Each send draws its own local id and client_id.
  let draws = 0;
  const clock = { ...manual.clock, random: () => (draws++ % 1000) / 1000 };
  const sends: number[] = [];
  // The real transport, counting the message sends that reach the network.
  const transport: HttpTransport = {
    request: (request) => {
      if (request.method === 'POST' && request.url.endsWith('/messages')) sends.push(clock.now());
      return fetchTransport.request(request);
    },
    upload: (request) => fetchTransport.upload(request),
  };
  const rest = createRestClient({
    transport,
    session: () => ({ apiBase: s.url, token: anna.token }),
    clientToken: 'install-retry-after',
    onUnauthorized: () => undefined,
  });
  const stored: Message[] = [];
  const outbox = new Outbox({
    storage: new MemoryStorage(),
    rest: () => rest,
    clock,
    userId: () => anna.id,
    onStored: (message) => stored.push(message),
  });
  const both = async (ms: number) => {
    serverClock.advance(ms);
    await advance(ms);
  };
  const serverTexts = async () =>
    (
      await s.server.ctx.db.all<{ message: string }>(
        sql`SELECT message FROM messages WHERE conversation_id = ${conversation.id} ORDER BY id`,
      )
    ).map((r) => r.message);
  return { conversation, rest, outbox, sends, stored, both, serverTexts };
}

describe('the outbox after a 429', () => {
  it('reads Retry-After into the EngineError of the refused call', async () => {
    const { conversation, rest, both } = await setup();
    await both(60_000);
    for (const n of [1, 2]) await rest.sendMessage(conversation.id, { clientId: n, message: `direct ${n}` });
    await expect(rest.sendMessage(conversation.id, { clientId: 3, message: 'direct 3' })).rejects.toMatchObject({
      name: 'EngineError',
      status: 429,
      message: 'You are sending too fast. Please wait a moment.',
      retryAfterMs: 5_000,
    });
  });

  it('waits Retry-After before the next try, a kick included, then delivers each message once, in order', async () => {
    const { conversation, outbox, sends, stored, both, serverTexts } = await setup();
    await both(60_000);
    const texts = ['one', 'two', 'three', 'four'];
    for (const text of texts) await outbox.add({ conversationId: conversation.id, text, quotedMessageId: null });
    // Two go at once; the third is refused with Retry-After: 5 and stays pending, not failed.
    await expect.poll(() => sends.length).toBe(3);
    await expect.poll(() => outbox.current.find((e) => e.text === 'three')?.attempts).toBe(1);
    expect(await serverTexts()).toEqual(['one', 'two']);
    expect(outbox.current.map((e) => [e.text, e.status])).toEqual([
      ['three', 'pending'],
      ['four', 'pending'],
    ]);

    // A reconnect's kick and a new send do not cut the wait short.
    outbox.kick();
    await outbox.add({ conversationId: conversation.id, text: 'five', quotedMessageId: null });
    await both(4_999);
    expect(sends.length).toBe(3);

    // At 5 s the third goes; the fourth is refused again (one token came back) and waits its 5 s.
    await both(1);
    const refused = (text: string) => outbox.current.find((e) => e.text === text)?.attempts;
    await expect.poll(() => refused('four')).toBe(1);
    expect(outbox.current.map((e) => e.text)).toEqual(['four', 'five']);
    await both(4_999);
    expect(sends.length).toBe(5);
    await both(1);
    await expect.poll(() => refused('five')).toBe(1);
    expect(outbox.current.map((e) => e.text)).toEqual(['five']);
    await both(5_000);
    await expect.poll(() => outbox.current).toEqual([]);

    expect(await serverTexts()).toEqual(['one', 'two', 'three', 'four', 'five']);
    expect(stored.map((m) => m.message)).toEqual(['one', 'two', 'three', 'four', 'five']);
    // Every try after a refusal came once its Retry-After had passed (engine clock, ms after the start).
    expect(sends.map((at) => at - 60_000)).toEqual([0, 0, 0, 5_000, 5_000, 10_000, 10_000, 15_000]);
    await outbox.stop();
  });
});

describe('sends of the same millisecond', () => {
  it('keep the order they were made in, whatever their random ids (a queue behind a 429 goes out in it)', async () => {
    const manual = manualClock();
    // Each local id draws a smaller number than the one before: ordered by id, the queue would turn around.
    let draw = 1;
    const clock = { ...manual.clock, random: () => (draw -= 0.01) };
    // A server that does not answer: the first send stays in flight (until the stop aborts it), the rest queue.
    const rest = {
      sendMessage: (_id: number, input: { signal?: AbortSignal }) =>
        new Promise((_, reject) => input.signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    } as unknown as RestClient;
    const outbox = new Outbox({ storage: new MemoryStorage(), rest: () => rest, clock, userId: () => 5, onStored: () => undefined });
    const texts = ['first', 'second', 'third', 'fourth'];
    for (const text of texts) await outbox.add({ conversationId: 9, text, quotedMessageId: null });
    expect(outbox.current.map((e) => e.text)).toEqual(texts);
    await outbox.stop();
  });
});
