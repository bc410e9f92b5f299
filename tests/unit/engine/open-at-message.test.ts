import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AHEAD, PAGE_SIZE } from '../../../src/engine/conversations/history';
import { Engine } from '../../../src/engine/engine';
import type { HttpTransport } from '../../../src/engine/rest';
import { PERSIST_STREAM_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import type { Message } from '../../../src/protocol/entities';
import { conversation, fakeSocket, incoming, ManualEngineClock, ok } from './support/fakeEngine';

/**
 * Opening a chat at a message far back (issue 13): the page around it becomes the window, newer pages
 * come by the server's `After` as the reader scrolls down until the window joins the latest, live
 * messages join then, and Jump to latest works from anywhere.
 */

const TAB = 'tab-1';

/** The server's chat 7 with messages 1…count, paged by Before, After and Message-Count as the reference server does. */
function serverChat(count: number, hiddenLast = false) {
  const messages: Message[] = Array.from({ length: count }, (_, i) => incoming(i + 1));
  /** With `hiddenLast`, the chat's last message is one this reader hid: no page ever holds it. */
  const hidden = hiddenLast ? incoming(count + 1) : null;
  /** Every page asked for: its Before and After (null when not sent) and count. */
  const pages: { before: number | null; after: number | null; count: number }[] = [];
  const transport: HttpTransport = {
    async request({ url, headers }) {
      const path = new URL(url).pathname;
      const last = hidden ?? messages[messages.length - 1] ?? null;
      const chat = { ...conversation, last_message: last, last_message_time: last?.created_at ?? '0' };
      if (path === '/v1/auth/pin/confirm') return ok({ token: 't', user_id: 1, endpoints: { http: '', ws: '' } });
      if (path === '/v1/me') return ok({ account: { id: 1, nickname: 'Anna', phone_nr: '+46700000001', country_code: '46' } });
      if (path === '/v2/conversations') return ok({ conversations: [{ conversation: chat }] });
      if (path === '/v2/conversations/7') return ok({ conversation: chat });
      if (path === '/v2/conversations/7/messages') {
        const size = Number(headers['Message-Count'] ?? 20);
        const before = headers.Before === undefined ? null : Number(headers.Before);
        const after = headers.After === undefined ? null : Number(headers.After);
        pages.push({ before, after, count: size });
        if (after !== null) return ok({ messages: messages.filter((m) => m.id > after).slice(0, size) });
        return ok({ messages: messages.filter((m) => before === null || m.id < before).slice(-size) });
      }
      return ok({ dlrs: [] });
    },
    async upload() {
      throw new Error('not used');
    },
  };
  return { messages, pages, transport };
}

/** Lets every answer and dispatch in flight run (the fake server answers at once). */
async function settle() {
  for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
}

async function signedIn(count = 1000, hiddenLast = false) {
  const clock = new ManualEngineClock();
  const chat = serverChat(count, hiddenLast);
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
  return { clock, chat, socket, storage, engine, view, ids, show };
}

/** The window holds one unbroken run of history: no gap, no message twice. */
function expectRun(ids: readonly number[]) {
  expect(ids.every((id, i) => i === 0 || id === (ids[i - 1] as number) + 1)).toBe(true);
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('opening a chat at a message', () => {
  it('makes the page around a far-back message the window: Before id+1 and After id, a page each', async () => {
    const { chat, engine, view } = await signedIn();
    await engine.openConversation(7);
    const asked = chat.pages.length;
    await engine.openConversationAt(7, 100);
    const shown = await view();
    expect(shown.messages.map((m) => m.id)).toEqual(range(100 - PAGE_SIZE + 1, 100 + PAGE_SIZE));
    expect(shown.hasOlder).toBe(true);
    expect(shown.hasNewer).toBe(true);
    expect(chat.pages.slice(asked)).toEqual([
      { before: 101, after: null, count: PAGE_SIZE },
      { before: null, after: 100, count: PAGE_SIZE },
    ]);
  });

  it('loads newer pages by After as the reader scrolls down, until the window joins the latest; live messages join then', async () => {
    const { chat, engine, ids, show, socket, view } = await signedIn();
    await engine.openConversationAt(7, 300);
    await show(295);
    const around = await ids();
    expectRun(around);
    expect(around.indexOf(295)).toBeGreaterThanOrEqual(AHEAD);
    expect(around.length - around.indexOf(304)).toBeGreaterThan(AHEAD);
    // A list refresh does not pull the reader to the latest page.
    await engine.refreshConversations();
    await settle();
    expect(await ids()).toContain(295);
    for (let oldest = 295; oldest <= 991; oldest += 10) {
      await show(oldest);
      const loaded = await ids();
      expect(loaded).toContain(oldest + 9);
      expectRun(loaded);
    }
    const end = await view();
    expect(end.messages[end.messages.length - 1]?.id).toBe(1000);
    expect(end.hasNewer).toBe(false);
    // Newer pages came 20 at a time, each After the window's last message; no latest page was asked for.
    const afters = chat.pages.filter((p) => p.after !== null).map((p) => p.after as number);
    expect(afters.length).toBeGreaterThan(25);
    expect(afters.every((a, i) => i === 0 || a === (afters[i - 1] as number) + PAGE_SIZE)).toBe(true);
    expect(chat.pages.filter((p) => p.before === null && p.after === null)).toEqual([]);
    const message = incoming(1001);
    chat.messages.push(message);
    socket.push({ action: 'conversation_message', id: 1, data: { conversation_id: 7, message } });
    await settle();
    expect((await ids()).slice(-2)).toEqual([1000, 1001]);
  });

  it('jumps to the latest from a window opened far back', async () => {
    const { engine, view, show } = await signedIn();
    await engine.openConversationAt(7, 300);
    await show(296);
    await engine.loadLatestMessages(7);
    await settle();
    const latest = await view();
    expect(latest.hasNewer).toBe(false);
    expect(latest.messages.map((m) => m.id)).toEqual(range(981, 1000));
  });

  it('takes no request when the window holds the message already', async () => {
    const { chat, engine, ids } = await signedIn();
    await engine.openConversation(7);
    const asked = chat.pages.length;
    await engine.openConversationAt(7, 990);
    expect(chat.pages.length).toBe(asked);
    expect(await ids()).toEqual(range(981, 1000));
  });

  it('takes the page from IndexedDB when a page trimmed off the window holds it', async () => {
    const { chat, engine, ids, show, storage } = await signedIn();
    await engine.openConversation(7);
    await settle();
    for (let oldest = 990; oldest >= 500; oldest -= 10) await show(oldest);
    const kept = (await storage.getAll<Message[]>('history')).flatMap((p) => p.value.map((m) => m.id));
    const target = kept.find((id) => id > 900);
    expect(target).toBeDefined();
    const asked = chat.pages.length;
    await engine.openConversationAt(7, target as number);
    const loaded = await ids();
    expect(loaded).toContain(target);
    expectRun(loaded);
    expect(chat.pages.length).toBe(asked);
  });

  it('opens a chat this engine does not know yet, and reaches the latest at once when the message is recent', async () => {
    const { engine, view } = await signedIn(30);
    await engine.openConversationAt(7, 25);
    const shown = await view();
    expect(shown.messages.map((m) => m.id)).toEqual(range(6, 30));
    expect(shown.hasNewer).toBe(false);
  });

  it('stops asking for newer pages at the end of what this reader may see', async () => {
    const { chat, engine, show, ids } = await signedIn(1000, true);
    await engine.openConversationAt(7, 950);
    await show(960);
    await show(990);
    expect((await ids()).at(-1)).toBe(1000);
    const asked = chat.pages.length;
    // The reader stays at the end: no request follows another by itself.
    await settle();
    await settle();
    expect(chat.pages.length).toBe(asked);
  });

  it("refuses ids that are not positive integers with the spec's text", async () => {
    const { engine } = await signedIn(30);
    for (const [c, m] of [[0, 5], [7, -1], [7, 1.5], [Number.NaN, 3]] as const) {
      await expect(engine.openConversationAt(c, m)).rejects.toMatchObject({ message: 'Invalid parameters provided' });
    }
  });
});
