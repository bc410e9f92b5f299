import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AHEAD, KEEP_BEYOND, PAGE_SIZE, RESTING_MS, TRIM_BEYOND } from '../../../src/engine/conversations/history';
import { PERSIST_RETRY_MS, PERSIST_STREAM_DELAY_MS } from '../../../src/engine/storage/batchedWriter';
import type { Message } from '../../../src/protocol/entities';
import { incoming } from './support/fakeEngine';
import { expectRun, settle, signedInWithChat, TAB } from './support/pagedChat';

/**
 * History that keeps up (issue 11): the engine keeps pages loaded ahead of the reader (IndexedDB first, then
 * the server, 20 a request), trims what is far from them so memory stays bounded, and brings trimmed pages
 * back as the reader returns; Jump to latest works after a trim.
 */

/** The engine signed in with chat 7 of `count` messages open at its latest page (support/pagedChat.ts). */
async function openChat(count = 1000) {
  const opened = await signedInWithChat(count);
  await opened.engine.openConversation(7);
  await opened.clock.advance(1);
  await settle();
  return opened;
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
    const { arrive, clock, ids, show, storage } = await openChat();
    await show(991);
    const batches: string[][] = [];
    const write = storage.writeBatch.bind(storage);
    storage.writeBatch = (ops) => {
      batches.push([...new Set(ops.map((op) => op.store))]);
      return write(ops);
    };
    // 300 messages at once at the bottom, the reader following them: the window trims pages off its top.
    arrive(1001, 1300);
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

  it('takes a trimmed page back from the queue when the reader returns before it was written', async () => {
    const { chat, engine, ids, show } = await openChat();
    for (let oldest = 990; oldest >= 700; oldest -= 10) await show(oldest);
    // Further up and straight back down, with no write in between: the pages trimmed meanwhile are queued.
    const move = async (oldest: number) => {
      engine.setViewport(TAB, 7, { oldestId: oldest, newestId: oldest + 9 });
      await settle();
    };
    for (let oldest = 690; oldest >= 500; oldest -= 10) await move(oldest);
    const asked = chat.pages.length;
    for (let oldest = 500; oldest <= 991; oldest += 10) await move(oldest);
    const loaded = await ids();
    expectRun(loaded);
    expect(loaded.at(-1)).toBe(1000);
    // Newer pages came from the queue or the disk; the only requests were older pages loaded again at the top.
    expect(chat.pages.slice(asked).every((p) => p.before !== null && p.before < 500)).toBe(true);
  });

  it('drops the trimmed pages of a write that failed, and the state is written again without them', async () => {
    const { arrive, clock, show, storage } = await openChat();
    await show(991);
    const write = storage.writeBatch.bind(storage);
    const batches: string[][] = [];
    let refuse = true;
    storage.writeBatch = async (ops) => {
      const stores = [...new Set(ops.map((op) => op.store))];
      batches.push(stores);
      if (refuse && stores.includes('history')) {
        refuse = false;
        throw new Error('the disk said no');
      }
      return write(ops);
    };
    arrive(1001, 1300);
    await show(1291);
    expect(refuse).toBe(false);
    await clock.advance(PERSIST_RETRY_MS);
    await settle();
    // The retry carried the state alone, and it is stored; no page of the failed write is kept or read.
    expect(batches.at(-1)).toContain('messages');
    expect(batches.at(-1)).not.toContain('history');
    expect(await storage.get('messages', '1300')).toBeDefined();
    expect(await storage.getAll('history')).toEqual([]);
  });

  it('never trims the newer end under a reader who follows the latest, however far their last report lags a burst', async () => {
    const { arrive, ids, engine, clock } = await openChat();
    engine.setViewport(TAB, 7, { oldestId: 991, newestId: 1000, following: true });
    await settle();
    // 400 messages arrive before the tab's next report, which it made from the window before them.
    arrive(1001, 1400);
    await settle();
    engine.setViewport(TAB, 7, { oldestId: 995, newestId: 1004, following: true });
    await settle();
    await clock.advance(PERSIST_STREAM_DELAY_MS);
    await settle();
    const view = await firstValueFrom(engine.messages(7));
    expect(view.hasNewer).toBe(false);
    expect(view.messages[view.messages.length - 1]?.id).toBe(1400);
    expectRun(await ids());
    // The same report from a reader who does not follow: 396 messages below them are trimmed.
    engine.setViewport(TAB, 7, { oldestId: 995, newestId: 1004 });
    await settle();
    expect((await firstValueFrom(engine.messages(7))).hasNewer).toBe(true);
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
    const { arrive, ids, show } = await openChat();
    for (let oldest = 990; oldest >= 600; oldest -= 10) await show(oldest);
    arrive(1001, 1045);
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
