import { describe, expect, it } from 'vitest';
import { AHEAD, PAGE_SIZE } from '../../../src/engine/conversations/history';
import type { Message } from '../../../src/protocol/entities';
import { incoming } from './support/fakeEngine';
import { expectRun, settle, signedInWithChat } from './support/pagedChat';

/**
 * Opening a chat at a message far back (issue 13): the page around it becomes the window, newer pages
 * come by the server's `After` as the reader scrolls down until the window joins the latest, live
 * messages join then, and Jump to latest works from anywhere.
 */

/** The engine signed in to chat 7 with `count` messages (support/pagedChat.ts). */
const signedIn = (count = 1000, hiddenLast = false) => signedInWithChat(count, { hiddenLast });

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
