import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Message } from '../../src/protocol/entities';
import { chat, outboxEntry as entry, listEngine, msg, OTHER, renderList, SELF, unmountList } from './chat-list-support';

afterEach(unmountList);

const pixel =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';


describe('message rendering', () => {
  it('renders every attachment type, and says so for one it does not know', async () => {
    const { messages, asTab } = listEngine();
    messages.next({
      loaded: true,
      hasOlder: false,
      messages: [
        msg(1, { message: '', attachment: { type: 'sticker', url: pixel } }),
        msg(2, { message: '', attachment: { type: 'sticker', url: pixel, file_info: { url: pixel, size: 1, dimensions: { width: 512, height: 512 } } } }),
        msg(3, { message: '', attachment: { type: 'audio', url: '/missing/voice.mp3', name: 'voice.mp3' } }),
        msg(4, { message: '', attachment: { type: 'file', url: '/missing/minutes.pdf', name: 'minutes.pdf', size: 1_572_864 } }),
        msg(5, { message: '', attachment: { type: 'link', url: 'https://example.org/review', metadata: { title: 'A review' } } }),
        msg(6, { message: '', attachment: { type: 'hologram' as never, url: 'x' } }),
        msg(7, { message: 'Look', attachment: { type: 'image', url: pixel, name: 'dot.png', file_info: { url: pixel, size: 1, dimensions: { width: 1200, height: 600 } } } }),
        msg(8, { message: 'Fixed typo', edited_at: 1 }),
      ],
    });
    await renderList(asTab);
    const row = (id: number) => page.getByRole('log').element().querySelector(`[data-message-id="${id}"]`) as HTMLElement;
    await expect.poll(() => row(8)).not.toBeNull();

    const sticker = (id: number) => row(id).querySelector('img') as HTMLImageElement;
    expect(sticker(1).getBoundingClientRect().width).toBe(120);
    expect(sticker(2).getBoundingClientRect().width).toBe(150);
    await expect.element(page.getByText('Audio not available')).toBeVisible();
    await expect.element(page.getByRole('link', { name: /minutes\.pdf/ })).toHaveTextContent('1.5 MB');
    await expect.element(page.getByText('A review')).toBeVisible();
    await expect.element(page.getByRole('link', { name: 'https://example.org/review' })).toHaveAttribute('rel', 'noopener noreferrer');
    await expect.element(page.getByText('This attachment type is not supported')).toBeVisible();
    const image = row(7).querySelector('img') as HTMLImageElement;
    expect(image.getBoundingClientRect().width).toBe(300);
    expect(image.getBoundingClientRect().height).toBe(150);
    await expect.element(page.getByRole('button', { name: 'Open image dot.png' })).toBeVisible();
    expect(row(8).textContent).toContain('edited');
  });

  it('keeps a tiny picture a usable button, and names the video that "Open in viewer" opens', async () => {
    const { messages, asTab } = listEngine();
    messages.next({
      loaded: true,
      hasOlder: false,
      messages: [
        msg(1, { message: '', attachment: { type: 'image', url: pixel, name: 'dot.png', file_info: { url: pixel, size: 1, dimensions: { width: 1, height: 1 } } } }),
        msg(2, { message: '', attachment: { type: 'image', url: pixel, name: 'speck.png' } }),
        msg(3, { message: '', attachment: { type: 'video', url: '/missing/clip.mp4', name: 'clip.mp4' } }),
      ],
    });
    await renderList(asTab);
    for (const name of ['Open image dot.png', 'Open image speck.png']) {
      const button = page.getByRole('button', { name });
      await expect.element(button).toBeVisible();
      const box = button.element().getBoundingClientRect();
      expect(box.width).toBeGreaterThanOrEqual(44);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    await expect.element(page.getByRole('button', { name: 'Open in viewer: clip.mp4' })).toHaveTextContent('Open in viewer');
  });

  it('shows the sender in groups where their run of messages starts, and the receipt words on own messages', async () => {
    const { messages, asTab } = listEngine();
    messages.next({
      loaded: true,
      hasOlder: false,
      messages: [msg(1), msg(2), msg(3, { user_id: SELF, message: 'Mine' })],
    });
    await renderList(asTab, { conversation: chat({ is_group: true, name: 'Group', member_count: 2 }) });
    await expect.element(page.getByText('Mine')).toBeVisible();
    expect(page.getByText('Erik', { exact: true }).elements()).toHaveLength(1);
    // Without receipts from the engine an own message is "Sent".
    await expect.element(page.getByRole('article', { name: 'Your message' }).getByText('Sent')).toBeInTheDocument();
  });

  it('shows a pending upload with its progress, and a send refused for good with its error, Edit and Discard', async () => {
    const { outbox, engine, asTab } = listEngine();
    outbox.next([
      entry({
        localId: 'a',
        text: 'With a photo',
        attachment: { name: 'cat.jpg', mime: 'image/jpeg', size: 1000, kind: 'image', progress: 0.4, uploaded: null },
      }),
      entry({
        localId: 'b',
        text: 'Refused',
        status: 'failed',
        error: {
          name: 'EngineError',
          status: 403,
          message: 'This is a demo chat',
          fallback: 'Failed to send message',
          call: 'sendMessage',
        },
      }),
      entry({ localId: 'c', conversationId: 99, text: 'Another chat' }),
    ]);
    await renderList(asTab);
    await expect.element(page.getByRole('progressbar', { name: 'Uploading cat.jpg' })).toHaveAttribute('value', '40');
    await expect.element(page.getByRole('article', { name: 'Your message, sending' })).toHaveTextContent('With a photo');
    const failed = page.getByRole('article', { name: 'Your message, not sent' });
    await expect.element(failed.getByRole('alert')).toHaveTextContent('This is a demo chat');
    // A 403 cannot change on a retry (docs/ui.md "Sending"): Edit and Discard only.
    expect(failed.getByRole('button', { name: 'Retry' }).elements()).toHaveLength(0);
    await userEvent.click(failed.getByRole('button', { name: 'Discard' }));
    expect(engine.discardSend).toHaveBeenCalledWith('b');
    // With no input on screen to take the text, Edit keeps the send rather than lose it.
    await userEvent.click(failed.getByRole('button', { name: 'Edit' }));
    expect(engine.discardSend).toHaveBeenCalledTimes(1);
    expect(engine.retrySend).not.toHaveBeenCalled();
    expect(page.getByText('Another chat').elements()).toHaveLength(0);
  });

  it('shows short and long events as one and the same quiet row: wrapped, no box, the time after the last word', async () => {
    const { messages, asTab } = listEngine();
    const description =
      'We read one book a month and meet on the last Thursday at the library café. Bring the book, your notes and a question for the others; newcomers are always welcome.';
    const system = (id: number, attachment: Message['attachment']) => msg(id, { type: 'system', message: '', attachment });
    messages.next({
      loaded: true,
      hasOlder: false,
      messages: [
        msg(1, { message: 'Hello' }),
        system(2, { type: 'event', event_type: 'user_added', event: { user_id: SELF, user_ids: [SELF] } }),
        system(3, { type: 'event', event_type: 'conversation_description_changed', event: { description } }),
        msg(4, { message: 'Bye' }),
      ],
    });
    await renderList(asTab, { conversation: chat({ is_group: true, name: 'Readers', member_count: 2 }) });
    const row = (id: number) => page.getByRole('log').element().querySelector(`[data-message-id="${id}"]`) as HTMLElement;
    await expect.poll(() => row(4)).not.toBeNull();
    const [short, long] = [row(2), row(3)];
    const lineOf = (r: HTMLElement) => r.querySelector('.msg-event__line') as HTMLElement;

    // The same component: the same elements and classes, not a bubble.
    const shape = (r: HTMLElement) => [r, ...r.querySelectorAll('*')].map((e) => `${e.tagName}.${e.className}`);
    expect(shape(long)).toEqual(shape(short));
    expect(short.className).toBe('msg-event');
    expect(long.querySelector('.msg-bubble')).toBeNull();
    expect(short.textContent).toMatch(/^Erik added you Today \d\d:\d\d$/);
    expect(long.textContent).toMatch(/^Erik changed the description to “We read .* always welcome\.” Today \d\d:\d\d$/);

    // The same look, and no box behind either: a long one is more lines of the same quiet text.
    const look = (r: HTMLElement) => {
      const style = getComputedStyle(lineOf(r));
      return [style.color, style.fontSize, style.lineHeight, style.textAlign, style.backgroundColor, style.borderTopWidth];
    };
    expect(look(long)).toEqual(look(short));
    expect(getComputedStyle(lineOf(long)).backgroundColor).toBe('rgba(0, 0, 0, 0)');
    expect(getComputedStyle(long).backgroundColor).toBe('rgba(0, 0, 0, 0)');
    const lineHeight = parseFloat(getComputedStyle(lineOf(short)).lineHeight);
    expect(lineOf(short).getBoundingClientRect().height).toBeLessThan(lineHeight * 1.5);
    expect(lineOf(long).getBoundingClientRect().height).toBeGreaterThan(lineHeight * 2.5);
    // Wrapped inside the list (600 px), centred under the other rows.
    const list = page.getByRole('log').element().getBoundingClientRect();
    const box = lineOf(long).getBoundingClientRect();
    expect(box.width).toBeLessThan(list.width * 0.9);
    expect(Math.abs(box.left - list.left - (list.right - box.right))).toBeLessThan(24);

    // The time: on the last line, right after the last word, for both.
    for (const r of [short, long]) {
      const time = r.querySelector('time') as HTMLElement;
      expect(time.textContent).toMatch(/^Today \d\d:\d\d$/);
      expect(time.getAttribute('dateTime')).toBeTruthy();
      expect(lineOf(r).getBoundingClientRect().bottom - time.getBoundingClientRect().bottom).toBeLessThan(lineHeight);
      const end = r.querySelector('.msg-event__end') as HTMLElement;
      expect(end.getClientRects()).toHaveLength(1);
      expect(end.textContent).toMatch(/^\S+ Today/);
    }
  });

  it('speaks Swedish in Swedish', async () => {
    const { messages, asTab } = listEngine();
    messages.next({
      loaded: true,
      hasOlder: false,
      messages: [msg(1, { message: '', attachment: { type: 'audio', url: '/missing/voice.mp3' } }), msg(2, { user_id: OTHER })],
    });
    await renderList(asTab, { language: 'sv' });
    await expect.element(page.getByText('Ljudet är inte tillgängligt')).toBeVisible();
    await expect.element(page.getByRole('separator')).toHaveTextContent('Idag');
    await act(async () => undefined);
  });

  it('names each message actions button after its sender, the start of its text and its time', async () => {
    const { messages, asTab } = listEngine();
    const long = 'Hej Sara, kommer du till bokklubben på torsdag eller blir det nästa vecka?';
    messages.next({
      loaded: true,
      hasOlder: false,
      messages: [
        msg(1, { message: 'Hej Sara' }),
        msg(2, { message: long }),
        msg(3, { user_id: SELF, message: 'Visst' }),
        msg(4, { message: '', attachment: { type: 'image', url: pixel, name: 'dot.png' } }),
      ],
    });
    await renderList(asTab);
    const name = (id: number) =>
      page.getByRole('log').element().querySelector(`[data-actions-for="${id}"] button`)?.getAttribute('aria-label');
    await expect.poll(() => name(4)).toBeTruthy();
    const time = (id: number) =>
      page.getByRole('log').element().querySelector(`[data-message-id="${id}"] time`)?.textContent ?? '';
    expect(name(1)).toBe(`Message actions: Erik, “Hej Sara”, ${time(1)}`);
    // Long texts are cut between words.
    expect(name(2)).toBe(`Message actions: Erik, “Hej Sara, kommer du till bokklubben på…”, ${time(2)}`);
    expect(name(3)).toBe(`Message actions: You, “Visst”, ${time(3)}`);
    expect(name(4)).toBe(`Message actions: Erik, Image, ${time(4)}`);
    expect(time(1)).toMatch(/^Today \d\d:\d\d$/u);
  });
});
