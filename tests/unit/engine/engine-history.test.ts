import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AHEAD, KEEP_BEYOND, PAGE_SIZE, RESTING_MS, TRIM_BEYOND } from '../../../src/engine/conversations/history';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import { PERSIST_STREAM_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Message } from '../../../src/protocol/entities';
import { conversation, fakeSocket, incoming, ManualEngineClock, ok } from './support/fakeEngine';

/**
 * History that keeps up (issue 11): the engine keeps pages loaded ahead of the reader (IndexedDB first, then
 * the server, 20 a request), trims what is far from them so memory stays bounded, and brings trimmed pages
 * back as the reader returns; Jump to latest works after a trim.
 */

const TAB = 'tab-1';

/** The server's chat 7 with messages 1…count, paged by Before and Message-Count as the reference server does. */
function serverChat(count: number) {
  const messages: Message[] = Array.from({ length: count }, (_, i) => incoming(i + 1));
  /** Every page asked for: its Before (null for the latest) and count. */
  const pages: { before: number | null; count: number }[] = [];
  /** While true, every older page (a Before) is refused with a 500, as a server in trouble. */
  const down = { older: false };
  const transport: HttpTransport = {
    async request({ url, headers }) {
      const path = new URL(url).pathname;
      const last = messages[messages.length - 1] ?? null;
      const chat = { ...conversation, last_message: last, last_message_time: last?.created_at ?? '0' };
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') return ok({ conversations: [{ conversation: chat }] });
      if (path === '/v2/conversations/7') return ok({ conversation: chat });
      if (path === '/v2/conversations/7/messages') {
        const size = Number(headers['Message-Count'] ?? 20);
        const before = headers.Before === undefined ? null : Number(headers.Before);
        pages.push({ before, count: size });
        if (down.older && before !== null) return { status: 500, json: async () => ({ success: false, status: 500 }) };
        const older = messages.filter((m) => before === null || m.id < before);
        return ok({ messages: older.slice(-size) });
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
async function settle() {
  for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function openChat(count = 1000) {
  const clock = new ManualEngineClock();
  const chat = serverChat(count);
  const socket = fakeSocket();
  const storage = new MemoryStorage();
  const engine = new Engine({ storage, apiBase: 'http://server.test', transport: chat.transport, socketFactory: socket.factory, clock, log: () => undefined });
  await engine.start();
  await engine.confirmPin('+46700000001', '1234');
  await engine.refreshConversations();
  await engine.openConversation(7);
  await clock.advance(1);
  await settle();
  const ids = async () => (await firstValueFrom(engine.messages(7))).messages.map((m) => m.id);
  /** The reader shows messages `oldest`…`oldest + 9`. */
  const show = async (oldest: number) => {
    engine.setViewport(TAB, 7, { oldestId: oldest, newestId: oldest + 9 });
    await settle();
    // The trimmed pages go to IndexedDB with the state's next write.
    await clock.advance(PERSIST_STREAM_DELAY_MS);
    await settle();
  };
  return { clock, chat, socket, storage, engine, ids, show };
}

/** The window holds one unbroken run of history: no gap, no message twice. */
function expectRun(ids: readonly number[]) {
  expect(ids.every((id, i) => i === 0 || id === (ids[i - 1] as number) + 1)).toBe(true);
}

describe('history that keeps up', () => {
  it('keeps about five pages loaded above the reader, asked for 20 at a time', async () => {
    const { chat, ids, show } = await openChat();
    expect(await ids()).toEqual(Array.from({ length: 20 }, (_, i) => 981 + i));
    await show(990);
    const loaded = await ids();
    expect(loaded.indexOf(990)).toBeGreaterThanOrEqual(AHEAD);
    expect(loaded[loaded.length - 1]).toBe(1000);
    expectRun(loaded);
    expect(chat.pages.every((p) => p.count === PAGE_SIZE)).toBe(true);
    // One request per page, each Before the oldest loaded message.
    const older = chat.pages.filter((p) => p.before !== null).map((p) => p.before);
    expect(older).toEqual(Array.from({ length: older.length }, (_, i) => 981 - i * PAGE_SIZE));
  });

  it("shares a prefetch already on its way with the reader's own request for older messages", async () => {
    const { chat, engine } = await openChat();
    const before = chat.pages.length;
    engine.setViewport(TAB, 7, { oldestId: 981, newestId: 990 });
    const loaded = await engine.loadOlderMessages(7);
    expect(loaded).toBe(true);
    const asked = chat.pages.slice(before).map((p) => p.before);
    expect(new Set(asked).size).toBe(asked.length);
  });

  it('trims far from the reader, in both directions, so the window stays bounded however far they go', async () => {
    const { ids, show, engine } = await openChat();
    let most = 0;
    for (let oldest = 990; oldest >= 300; oldest -= 10) {
      await show(oldest);
      const loaded = await ids();
      most = Math.max(most, loaded.length);
      expect(loaded).toContain(oldest);
      expect(loaded.indexOf(oldest)).toBeGreaterThanOrEqual(AHEAD);
      expectRun(loaded);
    }
    expect(most).toBeLessThanOrEqual(10 + AHEAD + PAGE_SIZE + TRIM_BEYOND);
    const view = await firstValueFrom(engine.messages(7));
    expect(view.hasNewer).toBe(true);
    expect(view.messages[view.messages.length - 1]?.id).toBeLessThan(300 + 10 + TRIM_BEYOND + 1);
    expect(view.messages[view.messages.length - 1]?.id).toBeGreaterThanOrEqual(300 + 9 + KEEP_BEYOND);
  });

  it('brings the trimmed pages back from IndexedDB as the reader returns, without asking the server', async () => {
    const { chat, ids, show, storage, engine } = await openChat();
    for (let oldest = 990; oldest >= 500; oldest -= 10) await show(oldest);
    expect((await storage.getAll('history')).length).toBeGreaterThan(0);
    const asked = chat.pages.length;
    for (let oldest = 500; oldest <= 991; oldest += 10) {
      await show(oldest);
      const loaded = await ids();
      expect(loaded).toContain(oldest + 9);
      expectRun(loaded);
    }
    const view = await firstValueFrom(engine.messages(7));
    expect(view.messages[view.messages.length - 1]?.id).toBe(1000);
    expect(view.hasNewer).toBe(false);
    // Newer pages all came from the disk; the only requests were older pages loaded again at the top.
    expect(chat.pages.slice(asked).every((p) => p.before !== null && p.before < 500)).toBe(true);
  });

  it('asks the server for a trimmed page that may have changed meanwhile, 20 by Before, with no gap', async () => {
    const { chat, ids, show, socket, engine } = await openChat();
    for (let oldest = 990; oldest >= 600; oldest -= 10) await show(oldest);
    // A reaction on a trimmed message: the pages kept on disk may be stale now.
    socket.push({ action: 'reactions_changed', id: 1, data: { conversation_id: 7, message_id: 990, message_stid: 'm_990', reactions: [] } });
    await settle();
    const asked = chat.pages.length;
    for (let oldest = 600; oldest <= 991; oldest += 10) await show(oldest);
    const loaded = await ids();
    expectRun(loaded);
    expect(loaded[loaded.length - 1]).toBe(1000);
    const newer = chat.pages.slice(asked).filter((p) => p.before !== null && p.before > 600);
    expect(newer.length).toBeGreaterThan(0);
    expect(newer.every((p) => p.count === PAGE_SIZE)).toBe(true);
    expect((await firstValueFrom(engine.messages(7))).hasNewer).toBe(false);
  });

  it('writes the pages a burst trims with the state, not a transaction each (issue 11)', async () => {
    const { chat, clock, ids, show, socket, storage } = await openChat();
    await show(991);
    const batches: string[][] = [];
    const write = storage.writeBatch.bind(storage);
    storage.writeBatch = (ops) => {
      batches.push([...new Set(ops.map((op) => op.store))]);
      return write(ops);
    };
    // 300 messages at once at the bottom, the reader following them: the window trims pages off its top.
    for (let id = 1001; id <= 1300; id++) {
      const message = incoming(id);
      chat.messages.push(message);
      socket.push({ action: 'conversation_message', id: id - 1000, data: { conversation_id: 7, message } });
    }
    await show(1291);
    await clock.advance(PERSIST_STREAM_DELAY_MS);
    await settle();
    expect((await ids()).at(-1)).toBe(1300);
    const spilled = (await storage.getAll<Message[]>('history')).length;
    expect(spilled).toBeGreaterThan(5);
    // Every trimmed page went to storage in the transactions that stored the messages.
    expect(batches.length).toBeLessThanOrEqual(2);
    const withPages = batches.filter((stores) => stores.includes('history'));
    expect(withPages.length).toBe(1);
    expect(withPages[0]).toContain('messages');
  });

  it('takes no live message into a window trimmed at its newer end, and Jump to latest brings the latest back', async () => {
    const { chat, ids, show, socket, engine } = await openChat();
    for (let oldest = 990; oldest >= 500; oldest -= 10) await show(oldest);
    const message = incoming(1001);
    chat.messages.push(message);
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message } });
    await settle();
    expect(await ids()).not.toContain(1001);
    // A list refresh does not pull the reader's window to the latest page.
    await engine.refreshConversations();
    await settle();
    expect((await ids())[0]).toBeLessThan(500);
    await engine.loadLatestMessages(7);
    await settle();
    const view = await firstValueFrom(engine.messages(7));
    expect(view.hasNewer).toBe(false);
    expect(view.messages.map((m) => m.id)).toEqual(Array.from({ length: 20 }, (_, i) => 982 + i));
    // At the bottom again, live messages join.
    await show(992);
    const next = incoming(1002);
    chat.messages.push(next);
    socket.push({ action: 'conversation_message', id: 2, data: { conversation_id: 7, message: next } });
    await settle();
    expect((await ids()).slice(-2)).toEqual([1001, 1002]);
  });

  it('catches up with messages that came while the window was trimmed, when the reader comes back down', async () => {
    const { chat, ids, show, socket } = await openChat();
    for (let oldest = 990; oldest >= 600; oldest -= 10) await show(oldest);
    for (let id = 1001; id <= 1045; id++) {
      const message = incoming(id);
      chat.messages.push(message);
      socket.push({ action: 'conversation_message', id: id - 1000, data: { conversation_id: 7, message } });
    }
    await settle();
    for (let oldest = 600; oldest <= 1036; oldest += 10) await show(oldest);
    const loaded = await ids();
    expectRun(loaded);
    expect(loaded[loaded.length - 1]).toBe(1045);
  });

  it('tries a failed prefetch again after a rest, longer after each failure, so a reader who stays put gets the page', async () => {
    const { chat, clock, ids, show } = await openChat();
    chat.down.older = true;
    await show(981);
    expect((await ids())[0]).toBe(981);
    const failedOnce = chat.pages.length;
    // Resting: no request until the rest is over, and none more for moving meanwhile.
    await show(982);
    expect(chat.pages.length).toBe(failedOnce);
    await clock.advance(RESTING_MS);
    await settle();
    expect(chat.pages.length).toBe(failedOnce + 1);
    // Twice the rest after the second failure in a row.
    await clock.advance(RESTING_MS);
    await settle();
    expect(chat.pages.length).toBe(failedOnce + 1);
    await clock.advance(RESTING_MS);
    await settle();
    expect(chat.pages.length).toBe(failedOnce + 2);
    // The server is back: the next try brings the pages, with the reader still where they were.
    chat.down.older = false;
    await clock.advance(4 * RESTING_MS);
    await settle();
    const loaded = await ids();
    expect(loaded.indexOf(982)).toBeGreaterThanOrEqual(AHEAD);
    expectRun(loaded);
  });
});
