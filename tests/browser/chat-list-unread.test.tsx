import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { listEngine, msg, outboxEntry, renderList, unmountList } from './chat-list-support';

/**
 * docs/ui.md, "Opening at the first unread message": the list opens with the unread divider at the top (or at
 * the end when everything from it fits), marks only what was on screen there, and drops the divider when the
 * reader sends.
 */
afterEach(unmountList);

const list = () => document.querySelector<HTMLElement>('[role="log"]') as HTMLElement;
const many = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const distanceFromEnd = () => list().scrollHeight - list().scrollTop - list().clientHeight;
const slotOf = (selector: string) => list().querySelector(selector)?.closest<HTMLElement>('.chat-row-slot') ?? null;
const marked = (engine: ReturnType<typeof listEngine>) =>
  (engine.engine.markVisible as unknown as { mock: { calls: [number, number][] } }).mock.calls.map((c) => c[1]);

/** The list of messages 1…60, of which 21…60 were unread when it opened. */
async function openedAtUnread(language?: 'en' | 'sv') {
  const engine = listEngine();
  engine.messages.next({ messages: many(1, 60), hasOlder: false, loaded: true });
  await renderList(engine.asTab, { firstUnread: { messageId: 21, count: 40 }, ...(language ? { language } : {}) });
  return engine;
}

describe('the unread divider', () => {
  it('opens with "40 unread messages" at the top, above the first unread message, and reads only what is on screen', async () => {
    const engine = await openedAtUnread();
    const divider = page.getByRole('separator', { name: '40 unread messages' });
    await expect.element(divider).toBeVisible();
    const dividerSlot = slotOf('.chat-unread');
    const firstSlot = slotOf('[data-message-id="21"]');
    expect(Number(firstSlot?.dataset.index)).toBe(Number(dividerSlot?.dataset.index) + 1);
    const top = (dividerSlot?.getBoundingClientRect().top ?? 0) - list().getBoundingClientRect().top;
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(40);
    await expect.element(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
    // The rows on screen are read as they show; none below the view, and none drawn before the list opened.
    await expect.poll(() => marked(engine)).toContain(21);
    expect(Math.max(...marked(engine))).toBeLessThan(40);
    expect(Math.min(...marked(engine))).toBeGreaterThanOrEqual(20);
  });

  it('in Swedish: "40 olästa meddelanden"', async () => {
    await openedAtUnread('sv');
    await expect.element(page.getByRole('separator', { name: '40 olästa meddelanden' })).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Till senaste' })).toBeVisible();
  });

  it('opens at the end when everything from the divider fits on screen, the divider in view', async () => {
    const engine = listEngine();
    engine.messages.next({ messages: many(1, 5), hasOlder: false, loaded: true });
    await renderList(engine.asTab, { firstUnread: { messageId: 3, count: 3 } });
    await expect.element(page.getByRole('separator', { name: '3 unread messages' })).toBeVisible();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    await expect.poll(() => marked(engine)).toContain(5);
  });

  it('goes when the reader sends', async () => {
    const engine = await openedAtUnread();
    await expect.element(page.getByRole('separator', { name: '40 unread messages' })).toBeVisible();
    await act(async () => engine.outbox.next([outboxEntry({ text: 'Sorry, was away' })]));
    await expect.poll(() => list().querySelector('.chat-unread')).toBeNull();
  });
});
