import { act } from './support/act';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Message } from '../../src/protocol/entities';
import { listEngine, msg, outboxEntry, renderList, SELF, unmountList } from './chat-list-support';

afterEach(async () => {
  vi.useRealTimers();
  await unmountList();
});

const list = () => document.querySelector<HTMLElement>('[role="log"]') as HTMLElement;
const distanceFromEnd = () => {
  const el = list();
  return el.scrollHeight - el.scrollTop - el.clientHeight;
};
const many = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
/**
 * Where the loaded rows begin in the list: with older history on the server there is room above them
 * (issue 11), so "the top" of spec §4 is the top of the rows.
 */
const rowsTop = () => Number(list().querySelector<HTMLElement>('.chat-list-inner')?.dataset.spaceAbove ?? 0);
const frames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

/** The list rendered with `shown` loaded, once it has settled at the bottom. */
async function openedAtBottom(shown: Message[], hasOlder: boolean) {
  const engine = listEngine();
  engine.messages.next({ messages: shown, hasOlder, loaded: true });
  await renderList(engine.asTab);
  await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
  return engine;
}

describe('the message list', () => {
  it('opens at the latest message and follows new ones while the reader is near the bottom', async () => {
    const { messages } = await openedAtBottom(many(1, 40), false);
    await expect.element(page.getByText('Message number 40')).toBeVisible();

    await act(async () => messages.next({ messages: many(1, 41), hasOlder: false, loaded: true }));
    await expect.element(page.getByText('Message number 41')).toBeVisible();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    expect(page.getByRole('button', { name: /Jump to latest/ }).elements()).toHaveLength(0);
  });

  it('stays where the reader is when they are far up, and offers Jump to latest with the count of new messages', async () => {
    const { messages, outbox } = await openedAtBottom(many(1, 60), false);
    list().scrollTop = 300;
    await frames();
    await expect.element(page.getByRole('button', { name: 'Jump to latest' })).toBeVisible();
    const top = list().scrollTop;

    await act(async () => messages.next({ messages: many(1, 62), hasOlder: false, loaded: true }));
    await frames();
    await expect.element(page.getByRole('button', { name: 'Jump to latest, 2 new messages' })).toBeVisible();
    expect(Math.abs(list().scrollTop - top)).toBeLessThanOrEqual(1);

    await userEvent.click(page.getByRole('button', { name: /Jump to latest/ }));
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    await expect.element(page.getByText('Message number 62')).toBeVisible();
    expect(page.getByRole('button', { name: /Jump to latest/ }).elements()).toHaveLength(0);

    // The reader's own send always brings the list down to it.
    list().scrollTop = 300;
    await frames();
    const entry = outboxEntry({ text: 'My own new message' });
    await act(async () => outbox.next([entry]));
    await expect.element(page.getByRole('article', { name: 'Your message, sending' })).toBeVisible();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
  });

  it('stays at the bottom when the list gets shorter (the composer grew, a file chip appeared)', async () => {
    await openedAtBottom(many(1, 40), false);
    list().style.height = `${list().clientHeight - 80}px`;
    list().style.flex = 'none';
    await frames();
    await expect.poll(distanceFromEnd, { timeout: 5_000 }).toBeLessThanOrEqual(2);
  });

  it('asks for older messages only within 200 px of the top', async () => {
    const { engine } = await openedAtBottom(many(100, 140), true);
    list().scrollTop = rowsTop() + 600;
    await frames();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(engine.loadOlderMessages).not.toHaveBeenCalled();
    list().scrollTop = rowsTop() + 150;
    await expect.poll(() => engine.loadOlderMessages.mock.calls.length).toBe(1);
    expect(engine.loadOlderMessages).toHaveBeenCalledWith(10);
  });

  it('waits 100 ms after a scroll into the top 200 px before asking for older messages, and asks once', async () => {
    // The list's timers run on a clock the test moves by hand.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { engine } = await openedAtBottom(many(100, 140), true);
    list().scrollTop = rowsTop() + 600;
    await frames();
    // Checks the list scheduled while opening run now, far from the top: they load nothing.
    await act(async () => vi.advanceTimersByTime(1_000));
    expect(engine.loadOlderMessages).not.toHaveBeenCalled();
    const scrolled = new Promise<void>((resolve) => list().addEventListener('scroll', () => resolve(), { once: true }));
    list().scrollTop = rowsTop() + 150;
    await scrolled;
    await act(async () => vi.advanceTimersByTime(99));
    expect(engine.loadOlderMessages).not.toHaveBeenCalled();
    await act(async () => vi.advanceTimersByTime(1));
    expect(engine.loadOlderMessages).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTime(500));
    expect(engine.loadOlderMessages).toHaveBeenCalledTimes(1);
  });

  it('observes and measures a row once when it mounts, not again on every render', async () => {
    const observed: Element[] = [];
    const observe = vi.spyOn(IntersectionObserver.prototype, 'observe');
    observe.mockImplementation(function (this: IntersectionObserver, el: Element) {
      observed.push(el);
    });
    const { messages } = await openedAtBottom(many(1, 30), false);
    await frames();
    const first = new Set(observed);
    expect(first.size).toBeGreaterThan(0);
    observed.length = 0;
    // Renders of the list (a new message, a scroll that shows "Jump to latest") leave mounted rows alone.
    await act(async () => messages.next({ messages: many(1, 31), hasOlder: false, loaded: true }));
    list().scrollTop = list().scrollTop - 150;
    await frames();
    await expect.element(page.getByText('Message number 31')).toBeInTheDocument();
    expect(observed.filter((el) => first.has(el) && el.isConnected)).toEqual([]);
    observe.mockRestore();
  });

  it('reports the other person’s messages that are at least half visible, once', async () => {
    const { messages, engine, asTab } = listEngine();
    messages.next({ messages: [...many(1, 30), msg(31, { user_id: SELF })], hasOlder: false, loaded: true });
    await renderList(asTab);
    await expect.poll(() => engine.markVisible.mock.calls.map(([, id]) => id)).toContain(30);
    const seen = engine.markVisible.mock.calls.map(([, id]) => id as number);
    expect(seen).not.toContain(31); // own
    expect(seen).not.toContain(1); // far above
    expect(new Set(seen).size).toBe(seen.length);
    expect(engine.markVisible.mock.calls.every(([id]) => id === 10)).toBe(true);
  });
});
