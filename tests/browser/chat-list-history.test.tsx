import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Message } from '../../src/protocol/entities';
import { listEngine, msg, renderList, unmountList } from './chat-list-support';
import { act } from './support/act';

/**
 * History that keeps up (issue 11), as the list shows it: it tells the engine what is on screen, pages added
 * or trimmed above move neither the rows nor the scroll position (a scroll write would stop a wheel scroll),
 * and Jump to latest loads the latest page after the window was trimmed at its newer end.
 */

afterEach(unmountList);

const list = () => document.querySelector<HTMLElement>('[role="log"]') as HTMLElement;
const many = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => msg(from + i));
const frames = () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
const row = (id: number) => list().querySelector<HTMLElement>(`[data-message-id="${id}"]`);
const top = (id: number) => row(id)?.getBoundingClientRect().top ?? Number.NaN;
const distanceFromEnd = () => list().scrollHeight - list().scrollTop - list().clientHeight;

/** The list with `shown` loaded and older history on the server, scrolled up so that message `at` is in view. */
async function readingAt(shown: Message[], at: number) {
  const engine = listEngine();
  engine.messages.next({ messages: shown, hasOlder: true, hasNewer: false, loaded: true });
  await renderList(engine.asTab);
  await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
  // Up by a screen at a time until the row is drawn, then with it in the middle.
  for (let i = 0; i < 50 && !row(at); i++) {
    list().scrollTop -= list().clientHeight;
    await frames();
  }
  row(at)?.scrollIntoView({ block: 'center' });
  await frames();
  await frames();
  let scrolls = 0;
  list().addEventListener('scroll', () => (scrolls += 1));
  return { ...engine, scrolls: () => scrolls };
}

/** Pushes a new window and waits for the list to lay it out and measure it. */
async function show(engine: ReturnType<typeof listEngine>, messages: Message[], more: { hasOlder?: boolean; hasNewer?: boolean } = {}) {
  await act(async () => engine.messages.next({ messages, hasOlder: more.hasOlder ?? true, hasNewer: more.hasNewer ?? false, loaded: true }));
  await frames();
  await frames();
}

describe('history that keeps up, in the list', () => {
  it('tells the engine which messages are on screen, and that the chat closed', async () => {
    const engine = await readingAt(many(100, 160), 120);
    await expect.poll(() => engine.engine.setViewport.mock.calls.at(-1)?.[2]?.oldestId).toBeLessThanOrEqual(120);
    const [tab, chatId, viewport] = engine.engine.setViewport.mock.calls.at(-1) ?? [];
    expect([tab, chatId]).toEqual(['tab-1', 10]);
    expect(viewport?.newestId).toBeGreaterThanOrEqual(120);
    expect((viewport?.newestId ?? 0) - (viewport?.oldestId ?? 0)).toBeLessThan(20);
    await unmountList();
    expect(engine.engine.setViewport.mock.calls.at(-1)).toEqual(['tab-1', 10, null]);
  });

  it('tells the engine that a reader at the bottom follows the latest, through a burst, and not once they scroll up', async () => {
    const engine = listEngine();
    let shown = many(1, 40);
    engine.messages.next({ messages: shown, hasOlder: true, hasNewer: false, loaded: true });
    await renderList(engine.asTab);
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    const last = () => engine.engine.setViewport.mock.calls.at(-1)?.[2];
    await expect.poll(() => last()?.following).toBe(true);
    // 1,000 messages within a second come as windows of a hundred more each.
    for (let batch = 0; batch < 10; batch++) {
      shown = [...shown, ...many(41 + batch * 100, 140 + batch * 100)];
      await act(async () => engine.messages.next({ messages: shown, hasOlder: true, hasNewer: false, loaded: true }));
      // The engine trims what lies 200 messages below a reader: a report made before the next window arrives
      // must still say the reader follows.
      expect(last()?.following).toBe(true);
    }
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    await expect.poll(() => row(1040)).not.toBeNull();
    // Scrolled up, the reader no longer follows: what they see is what counts.
    list().scrollTop -= list().clientHeight * 3;
    await expect.poll(() => last()?.following).toBe(false);
    expect(last()?.newestId).toBeLessThan(1040);
    // At the end of a window trimmed at its newer end, the reader is not at the latest either.
    await show(engine, many(900, 1000), { hasNewer: true });
    list().scrollTop = list().scrollHeight;
    await frames();
    await frames();
    expect(last()?.following).toBe(false);
  });

  it('keeps the rows and the scroll position exactly where they are when pages are added or trimmed above', async () => {
    const engine = await readingAt(many(100, 160), 120);
    const scrollTop = list().scrollTop;
    const before = top(120);
    // An older page in front, then another with pictures of unknown height (measured once drawn).
    await show(engine, many(80, 160));
    expect(top(120)).toBe(before);
    await show(engine, [...many(60, 79).map((m) => ({ ...m, message: `${m.message}\nwith\nfour\nlines` })), ...many(80, 160)]);
    expect(top(120)).toBe(before);
    // The far end trimmed, then the older pages again.
    await show(engine, many(80, 160));
    expect(top(120)).toBe(before);
    await show(engine, many(100, 140), { hasNewer: true });
    expect(top(120)).toBe(before);
    expect(list().scrollTop).toBe(scrollTop);
    expect(engine.scrolls()).toBe(0);
  });

  it('at the first message the room above goes, and the row being read stays put', async () => {
    const engine = await readingAt(many(100, 160), 110);
    const before = top(110);
    await act(async () => engine.messages.next({ messages: many(1, 160), hasOlder: false, hasNewer: false, loaded: true }));
    // In the very frame the room goes (the scroll moves with it), the row is drawn where it was.
    expect(top(110)).toBe(before);
    await frames();
    expect(top(110)).toBe(before);
    expect(list().querySelector<HTMLElement>('.chat-list-inner')?.dataset.spaceAbove).toBe('0');
    list().scrollTop = 0;
    await expect.element(page.getByText('Message number 1', { exact: true })).toBeVisible();
  });

  it('near the first message, once its pages are trimmed and the reader rests, the room comes back and the row stays put', async () => {
    // Issue 20: the room made roomy again at rest was taken for rows moved above and given back in the same
    // render, and the scroll went where the room was not (clamped at the end of the rows): the view jumped.
    const engine = listEngine();
    engine.messages.next({ messages: many(1, 160), hasOlder: false, hasNewer: false, loaded: true });
    await renderList(engine.asTab);
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    const rest = () => new Promise((resolve) => setTimeout(resolve, 400));
    for (let i = 0; i < 50 && !row(120); i++) {
      list().scrollTop -= list().clientHeight;
      await frames();
    }
    row(120)?.scrollIntoView({ block: 'center' });
    await rest();
    const space = () => list().querySelector<HTMLElement>('.chat-list-inner')?.dataset.spaceAbove;
    expect(space()).toBe('0');
    // The oldest pages trimmed: older history is behind the window again, and the room above takes their place.
    await show(engine, many(61, 160));
    const before = top(120);
    expect(row(120)).not.toBeNull();
    // The reader scrolls a little and rests.
    list().scrollTop += 40;
    await frames();
    const moved = top(120);
    expect(moved).toBe(before - 40);
    await rest();
    await frames();
    expect(row(120), 'the row read is still drawn').not.toBeNull();
    expect(top(120)).toBe(moved);
    expect(space()).toBe('100000');
  });

  it('offers Jump to latest at the end of a window trimmed there, which loads the latest page', async () => {
    const engine = await readingAt(many(100, 160), 150);
    await show(engine, many(100, 150), { hasNewer: true });
    list().scrollTop = list().scrollHeight;
    await frames();
    // The end of what is loaded is not the end of the chat.
    const jump = page.getByRole('button', { name: /Jump to latest/ });
    await expect.element(jump).toBeVisible();
    await userEvent.click(jump);
    expect(engine.engine.loadLatestMessages).toHaveBeenCalledWith(10);
    await show(engine, many(481, 500));
    await expect.element(page.getByText('Message number 500')).toBeVisible();
    await expect.poll(distanceFromEnd).toBeLessThanOrEqual(2);
    expect(page.getByRole('button', { name: /Jump to latest/ }).elements()).toHaveLength(0);
  });
});
