import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { MessageWindowView } from '../../src/engine/api';
import { ChatUiProvider } from '../../src/ui/chat/ChatContext';
import { FOUND_MS, MessageList, type OpenTarget } from '../../src/ui/chat/list/MessageList';
import { chat, listEngine, msg, SELF, unmountList } from './chat-list-support';
import { mount } from './support/mount';

/**
 * A chat opened at a message (a search hit, issue 13): the list waits for the page around it, centres it
 * and highlights it for FOUND_MS, offers Jump to latest from there, and opens at the nearest message when
 * the one asked for is gone.
 */

afterEach(unmountList);

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const windowOf = (from: number, to: number, more: Partial<MessageWindowView> = {}): MessageWindowView => ({
  messages: range(from, to).map((id) => msg(id)),
  hasOlder: true,
  hasNewer: true,
  loaded: true,
  ...more,
});

async function renderAt(fake: ReturnType<typeof listEngine>, target: OpenTarget) {
  const conversation = chat();
  return mount(
    <ChatUiProvider conversation={conversation} selfId={SELF}>
      <MessageList conversationId={10} latest={conversation.last_message} target={target} />
    </ChatUiProvider>,
    { engine: fake.asTab, tag: 'section', style: 'height: 500px; width: 600px', attributes: { class: 'chat-view' } },
  );
}

const slotOf = (id: number) => page.getByText(`Message number ${id}`, { exact: true }).element().closest('.chat-row-slot');

/** Whether message `id`'s row is inside the list's visible area. */
function onScreen(id: number): boolean {
  const list = document.querySelector('.chat-list')?.getBoundingClientRect();
  const row = [...document.querySelectorAll('.chat-row-slot')].find((el) => el.textContent?.includes(`Message number ${id}`));
  const box = row?.getBoundingClientRect();
  return !!list && !!box && box.top >= list.top && box.bottom <= list.bottom;
}

describe('a chat opened at a message', () => {
  it('waits for the page around it, then shows it highlighted for a while, with Jump to latest', async () => {
    const fake = listEngine();
    // The window the engine held before it loaded around the message: the latest page.
    fake.messages.next(windowOf(981, 1000, { hasNewer: false }));
    await renderAt(fake, { messageId: 300, settled: false });
    await act(async () => fake.messages.next(windowOf(281, 320)));
    await expect.poll(() => onScreen(300)).toBe(true);
    expect(slotOf(300)?.classList.contains('chat-row-found')).toBe(true);
    expect(document.querySelectorAll('.chat-row-found')).toHaveLength(1);
    // The viewport the engine hears about is around the message, so it loads pages on both sides of it.
    await expect.poll(() => fake.engine.setViewport.mock.calls.at(-1)?.[2]).toMatchObject({ oldestId: expect.any(Number) });
    const viewport = fake.engine.setViewport.mock.calls.at(-1)?.[2] as { oldestId: number; newestId: number };
    expect(viewport.oldestId).toBeLessThanOrEqual(300);
    expect(viewport.newestId).toBeGreaterThanOrEqual(300);
    await expect.poll(() => document.querySelectorAll('.chat-row-found').length, { timeout: FOUND_MS + 3_000 }).toBe(0);
    await userEvent.click(page.getByRole('button', { name: 'Jump to latest' }));
    expect(fake.engine.loadLatestMessages).toHaveBeenCalledWith(10);
  });

  it('opens at once when the window holds the message already', async () => {
    const fake = listEngine();
    fake.messages.next(windowOf(981, 1000, { hasNewer: false }));
    await renderAt(fake, { messageId: 985, settled: false });
    await expect.poll(() => onScreen(985)).toBe(true);
    expect(slotOf(985)?.classList.contains('chat-row-found')).toBe(true);
  });

  it('opens at the nearest message after it when it is gone, without a highlight', async () => {
    const fake = listEngine();
    const around = windowOf(281, 320);
    fake.messages.next({ ...around, messages: around.messages.filter((m) => m.id !== 300) });
    await renderAt(fake, { messageId: 300, settled: false });
    // Not settled yet: the list waits rather than open at the end.
    expect(onScreen(320)).toBe(false);
    await renderAt(fake, { messageId: 300, settled: true });
    await expect.poll(() => onScreen(301)).toBe(true);
    expect(document.querySelectorAll('.chat-row-found')).toHaveLength(0);
  });
});
