import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { PAGE_SIZE } from '../../../src/engine/conversations/history';
import { settle, signedInWithChat, TAB } from './support/pagedChat';

/**
 * docs/ui.md, "Opening at the first unread message": `openConversation(id, { atUnread: true })` loads the first
 * unread message and answers it with the unread count; shown by a tab that reads as seen, the chat stays unread.
 */
const unreadCount = async (engine: Awaited<ReturnType<typeof signedInWithChat>>['engine']) =>
  (await firstValueFrom(engine.conversation(7)))?.unreadCount;

describe('opening a chat at its first unread message', () => {
  it('with a known read point: the page around it becomes the window, and nothing is read', async () => {
    // Chat 7 read up to message 1000 (the list said nothing was unread); 34 more come while it is not open.
    const { chat, engine, arrive, view } = await signedInWithChat(1000);
    arrive(1001, 1034);
    await settle();
    expect(await unreadCount(engine)).toBe(34);

    engine.setTabState(TAB, { visible: true, focused: true, openConversationId: 7, readsAsSeen: true });
    const asked = chat.pages.length;
    const first = await engine.openConversation(7, { atUnread: true });
    expect(first).toEqual({ messageId: 1001, count: 34 });
    // The latest page did not reach back to it: the page around the read point (Before 1001, After 1000).
    expect(chat.pages.slice(asked)).toEqual([
      { before: null, after: null, count: PAGE_SIZE },
      { before: 1001, after: null, count: PAGE_SIZE },
      { before: null, after: 1000, count: PAGE_SIZE },
    ]);
    const ids = (await view()).messages.map((m) => m.id);
    expect(ids).toContain(1000);
    expect(ids).toContain(1001);
    await settle();
    expect(await unreadCount(engine)).toBe(34);
  });

  it('without one (a new sign-in): older pages until the count is reached, counted back from the latest', async () => {
    // The server counts 34 unread: this engine holds no read point, only the count.
    const { chat, engine, view } = await signedInWithChat(1034, { unread: 34 });
    engine.setTabState(TAB, { visible: true, focused: true, openConversationId: 7, readsAsSeen: true });
    expect(await unreadCount(engine)).toBe(34);
    const first = await engine.openConversation(7, { atUnread: true });
    expect(first).toEqual({ messageId: 1001, count: 34 });
    // The latest page (1015…1034), then one older page (995…1014).
    expect(chat.pages).toEqual([
      { before: null, after: null, count: PAGE_SIZE },
      { before: 1015, after: null, count: PAGE_SIZE },
    ]);
    expect((await view()).messages.map((m) => m.id)).toContain(1001);
    await settle();
    expect(await unreadCount(engine)).toBe(34);
  });

  it('answers null when nothing is unread, and reads the chat as before', async () => {
    const { engine } = await signedInWithChat(100);
    engine.setTabState(TAB, { visible: true, focused: true, openConversationId: 7, readsAsSeen: true });
    expect(await engine.openConversation(7, { atUnread: true })).toBeNull();
    expect(await unreadCount(engine)).toBe(0);
  });
});
