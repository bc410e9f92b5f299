import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { page, userEvent } from 'vitest/browser';
import { Composer } from '../../src/ui/chat/composer/Composer';
import { saveThenReload } from '../../src/ui/hooks/saveBeforeReload';
import { conversation, fakeEngine, message, OTHER, render, ui, unmount } from './composer-support';

afterEach(unmount);

const input = () => page.getByRole('textbox', { name: 'Message' });

const SEND_FAILED = {
  name: 'EngineError',
  status: 0,
  message: 'Failed to send message',
  fallback: 'Failed to send message',
  call: 'sendMessage',
};

/** Holds the engine's answer to the next send back; the function returned refuses it. */
function holdNextSend(engine: ReturnType<typeof fakeEngine>['engine']): () => void {
  let refuse: (error: unknown) => void = () => undefined;
  engine.sendMessage.mockImplementationOnce(
    () =>
      new Promise((_resolve, reject) => {
        refuse = reject;
      }),
  );
  return () => refuse(SEND_FAILED);
}

describe('the composer', () => {
  it('sends on Enter, makes a newline on Shift+Enter, and needs some text', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    await expect.element(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.click(input());
    await userEvent.keyboard('{Enter}');
    expect(engine.sendMessage).not.toHaveBeenCalled();

    await userEvent.keyboard('first line{Shift>}{Enter}{/Shift}second');
    await expect.element(input()).toHaveValue('first line\nsecond');
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
    expect(engine.sendMessage).toHaveBeenCalledWith(10, { text: 'first line\nsecond' });
    await expect.element(input()).toHaveValue('');
    expect(engine.setDraft).toHaveBeenLastCalledWith(10, '');
  });

  it('sends on Ctrl+Enter only when enter-to-send is off', async () => {
    const { engine, asTab, settings } = fakeEngine();
    settings.next({ ...settings.value, enterToSend: false });
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('a{Enter}b');
    await expect.element(input()).toHaveValue('a\nb');
    expect(engine.sendMessage).not.toHaveBeenCalled();
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
    expect(engine.sendMessage).toHaveBeenCalledWith(10, { text: 'a\nb' });
  });

  it('grows with the text up to 160 px, then scrolls', async () => {
    const { asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    const box = input().element() as HTMLTextAreaElement;
    // The field is the textarea and the rounded frame around it.
    const field = box.parentElement as HTMLElement;
    const start = field.getBoundingClientRect().height;
    await userEvent.click(input());
    await userEvent.keyboard('1{Shift>}{Enter}{/Shift}2{Shift>}{Enter}{/Shift}3');
    await expect.poll(() => field.getBoundingClientRect().height).toBeGreaterThan(start);
    await userEvent.keyboard('{Shift>}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{Enter}{/Shift}x');
    await expect.poll(() => getComputedStyle(box).overflowY).toBe('auto');
    const tallest = field.getBoundingClientRect().height;
    expect(tallest).toBeLessThanOrEqual(160);
    expect(tallest).toBeGreaterThan(160 - 24);
    await userEvent.keyboard('{Shift>}{Enter}{/Shift}y');
    expect(field.getBoundingClientRect().height).toBe(tallest);
  });

  it('never cuts its first line: no hidden scroll while it grows, and whole lines, clear of the border, once tall', async () => {
    const { asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    const box = input().element() as HTMLTextAreaElement;
    const field = box.parentElement as HTMLElement;
    const lineHeight = parseFloat(getComputedStyle(box).lineHeight);
    await userEvent.click(input());
    // Growing: each line shows, the first from its top; nothing is scrolled out of sight.
    await userEvent.keyboard('Åsa line 1');
    for (let n = 2; n <= 5; n++) {
      await userEvent.keyboard(`{Shift>}{Enter}{/Shift}Åsa line ${n}`);
      await expect.poll(() => Math.round(box.clientHeight / lineHeight)).toBe(n);
      expect(box.scrollTop).toBe(0);
      expect(box.scrollHeight).toBeLessThanOrEqual(box.clientHeight);
    }
    // Tall: many lines scroll inside the frame, the cursor's line in view.
    for (let n = 6; n <= 14; n++) await userEvent.keyboard(`{Shift>}{Enter}{/Shift}Åsa line ${n}`);
    await expect.poll(() => getComputedStyle(box).overflowY).toBe('auto');
    await expect.poll(() => box.scrollTop).toBeGreaterThan(0);
    expect(box.scrollTop).toBeGreaterThanOrEqual(box.scrollHeight - box.clientHeight - lineHeight / 2);
    // What shows is whole lines, so the first line on show is not a sliver cut by the top edge ...
    const shownLines = box.clientHeight / lineHeight;
    expect(Math.abs(shownLines - Math.round(shownLines))).toBeLessThan(0.1);
    const firstShown = box.scrollTop / lineHeight;
    expect(Math.abs(firstShown - Math.round(firstShown))).toBeLessThan(0.15);
    // ... and the text's edge is inside the frame's padding, clear of the rounded border.
    const frame = field.getBoundingClientRect();
    const text = box.getBoundingClientRect();
    expect(text.top - frame.top).toBeGreaterThanOrEqual(6);
    expect(frame.bottom - text.bottom).toBeGreaterThanOrEqual(6);
    // Back at the top, the first line is the one on show, from its top.
    box.scrollTop = 0;
    await userEvent.keyboard('{Control>}{Home}{/Control}');
    expect(box.scrollTop).toBe(0);
    expect(box.selectionStart).toBe(0);
    expect(box.value.startsWith('Åsa line 1\n')).toBe(true);
  });

  it('keeps the text and shows the engine’s message when a send is refused', async () => {
    const { engine, asTab } = fakeEngine();
    engine.sendMessage.mockRejectedValueOnce({
      name: 'EngineError',
      status: 403,
      message: 'Only broadcasters can send messages in a broadcast group.',
      fallback: 'Failed to send message',
      call: 'sendMessage',
    });
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('keep me{Enter}');
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('Only broadcasters can send messages in a broadcast group.');
    await expect.element(input()).toHaveValue('keep me');
  });

  it('empties the input as soon as the message is handed over, and gives it back if the engine refuses it', async () => {
    const { engine, asTab } = fakeEngine();
    const refuse = holdNextSend(engine);
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('first{Enter}');
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
    // Still waiting for the engine's answer, and the input is already empty for the next message.
    await expect.element(input()).toHaveValue('');
    await userEvent.keyboard('second');
    refuse();
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to send message');
    await expect.element(input()).toHaveValue('first\nsecond');
  });

  it('fills the input with the stored draft and saves what is typed', async () => {
    const { engine, asTab, drafts } = fakeEngine();
    drafts.next({ 10: 'from another tab' });
    await render(<Composer />, { engine: asTab });
    await expect.element(input()).toHaveValue('from another tab');
    await userEvent.click(input());
    await userEvent.keyboard('!');
    await expect.poll(() => drafts.value[10]).toBe('from another tab!');
    expect(engine.setDraft).toHaveBeenCalledWith(10, 'from another tab!');
  });

  it('saves what was typed before the stored drafts first arrived, once they do', async () => {
    const { engine, asTab, drafts } = fakeEngine();
    const late = new Subject<Readonly<Record<number, string>>>();
    // The engine's first answer comes only after the typing (a busy worker at start).
    Object.assign(engine, { drafts: () => late });
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('half a thought');
    await act(async () => late.next({}));
    await expect.poll(() => drafts.value[10]).toBe('half a thought');
    await expect.element(input()).toHaveValue('half a thought');
  });

  it('writes a draft still waiting when the chat closes', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('unsaved');
    await unmount();
    expect(engine.setDraft).toHaveBeenLastCalledWith(10, 'unsaved');
  });

  it('writes a draft still waiting before the engine reloads the tab into another build (issue 14)', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('typed just before the deploy');
    const calls = () => engine.setDraft.mock.calls.length;
    const before = calls();
    let draftsWhenReloading: unknown[][] = [];
    await saveThenReload(() => {
      draftsWhenReloading = engine.setDraft.mock.calls.slice(before);
    });
    // Saved before the reload, not after the save delay (which a reloading page never reaches).
    expect(draftsWhenReloading).toEqual([[10, 'typed just before the deploy']]);
  });
});

describe('reply and edit previews', () => {
  it('shows the reply with its author and text cut at 100 characters, sends it as a quote, and cancels', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    const long = 'x'.repeat(150);
    await act(async () => ui.current?.setReplyTo(message({ id: 55, user_id: OTHER, message: long })));
    const preview = page.getByTestId('composer-reply-preview');
    await expect.element(preview).toHaveTextContent('Replying to Erik');
    await expect.element(preview).toHaveTextContent(`${'x'.repeat(100)}…`);
    await expect.element(input()).toHaveFocus();
    await userEvent.keyboard('answer{Enter}');
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
    expect(engine.sendMessage).toHaveBeenCalledWith(10, { text: 'answer', quotedMessageId: 55 });
    await expect.element(preview).not.toBeInTheDocument();

    await act(async () => ui.current?.setReplyTo(message({ id: 56, user_id: OTHER })));
    await userEvent.click(page.getByRole('button', { name: 'Cancel reply' }));
    await expect.element(page.getByTestId('composer-reply-preview')).not.toBeInTheDocument();
  });

  it('edits the latest own message on Up in an empty input, saves with Enter, and gives the draft back', async () => {
    const { engine, asTab, messages } = fakeEngine();
    const own = message({ id: 77, message: 'tpyo here' });
    messages.next({ messages: [own], hasOlder: false, loaded: true });
    engine.editTarget.mockResolvedValue(77);
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('{ArrowUp}');
    await expect.element(page.getByTestId('composer-edit-preview')).toHaveTextContent('tpyo here');
    await expect.element(input()).toHaveValue('tpyo here');
    await userEvent.clear(input());
    await userEvent.keyboard('typo fixed{Enter}');
    await expect.poll(() => engine.editMessage.mock.calls.length).toBe(1);
    expect(engine.editMessage).toHaveBeenCalledWith(10, 77, 'typo fixed');
    await expect.element(page.getByTestId('composer-edit-preview')).not.toBeInTheDocument();
    await expect.element(input()).toHaveValue('');
  });

  it('keeps a refused reply in a reply-only broadcast: the form, the text, the preview and the error', async () => {
    const { engine, asTab } = fakeEngine();
    engine.sendMessage.mockRejectedValueOnce(SEND_FAILED);
    const broadcast = conversation({
      is_group: true,
      settings: { reply_to: '1', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    });
    await render(<Composer />, { engine: asTab, conversation: broadcast });
    await expect.element(page.getByTestId('composer-blocked')).toBeInTheDocument();
    await act(async () => ui.current?.setReplyTo(message({ id: 57, user_id: OTHER, message: 'Any questions?' })));
    await userEvent.keyboard('one question{Enter}');
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to send message');
    await expect.element(input()).toHaveValue('one question');
    await expect.element(page.getByTestId('composer-reply-preview')).toHaveTextContent('Any questions?');
  });

  it('gives a send refused during an edit back when the edit ends, not into the edited message', async () => {
    const { engine, asTab } = fakeEngine();
    const refuse = holdNextSend(engine);
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('not lost{Enter}');
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
    await act(async () => ui.current?.setEditing(message({ id: 79, message: 'being edited' })));
    await expect.element(input()).toHaveValue('being edited');
    refuse();
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to send message');
    await expect.element(input()).toHaveValue('being edited');
    await userEvent.keyboard('{Escape}');
    await expect.element(input()).toHaveValue('not lost');
  });

  it('cancels an edit with Escape and restores what was typed before', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('half a thought');
    await act(async () => ui.current?.setEditing(message({ id: 78, message: 'old text' })));
    await expect.element(input()).toHaveValue('old text');
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByTestId('composer-edit-preview')).not.toBeInTheDocument();
    await expect.element(input()).toHaveValue('half a thought');
    expect(engine.editMessage).not.toHaveBeenCalled();
  });

  it('does nothing on Up when there is no own editable message or the input has text', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    await userEvent.click(input());
    await userEvent.keyboard('{ArrowUp}');
    await expect.poll(() => engine.editTarget.mock.calls.length).toBe(1);
    await userEvent.keyboard('x{ArrowUp}');
    expect(engine.editTarget).toHaveBeenCalledTimes(1);
    await expect.element(page.getByTestId('composer-edit-preview')).not.toBeInTheDocument();
  });
});

describe('attachments', () => {
  const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'cat.png', { type: 'image/png' });

  it('shows a chosen image as a removable chip and sends it', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    const file = png();
    await userEvent.upload(page.getByRole('button', { name: 'Attach an image or video' }).element().nextElementSibling as HTMLElement, file);
    const chip = page.getByTestId('composer-attachment');
    await expect.element(chip).toHaveTextContent('cat.png');
    await expect.element(chip).toHaveTextContent('8 B');
    await userEvent.click(page.getByRole('button', { name: 'Remove cat.png' }));
    await expect.element(chip).not.toBeInTheDocument();
    await expect.element(page.getByRole('button', { name: 'Send' })).toBeDisabled();

    await userEvent.upload(page.getByRole('button', { name: 'Attach an image or video' }).element().nextElementSibling as HTMLElement, file);
    await userEvent.click(page.getByRole('button', { name: 'Send' }));
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
    const [, sent] = engine.sendMessage.mock.calls[0] as unknown as [number, { text: string; file: File }];
    expect(sent.text).toBe('');
    expect(sent.file.name).toBe('cat.png');
    await expect.element(chip).not.toBeInTheDocument();
  });

  it('refuses a file that is not an image or video with the spec’s alert', async () => {
    const { asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab });
    const text = new File(['hello'], 'notes.txt', { type: 'text/plain' });
    await userEvent.upload(page.getByRole('button', { name: 'Attach an image or video' }).element().nextElementSibling as HTMLElement, text);
    await expect
      .element(page.getByRole('alert'))
      .toHaveTextContent('File type not supported. Please select an image or video file.');
    await expect.element(page.getByTestId('composer-attachment')).not.toBeInTheDocument();
  });

  it('covers the chat with an overlay while files are dragged and takes only the first dropped file', async () => {
    const { asTab } = fakeEngine();
    const chat = await render(<Composer />, { engine: asTab });
    const transfer = new DataTransfer();
    transfer.items.add(png());
    transfer.items.add(new File(['x'], 'second.png', { type: 'image/png' }));
    await act(async () => {
      chat.dispatchEvent(new DragEvent('dragenter', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await expect.element(page.getByText('Drop an image or video to attach it')).toBeVisible();
    await act(async () => {
      chat.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    });
    await expect.element(page.getByText('Drop an image or video to attach it')).not.toBeInTheDocument();
    await expect.element(page.getByTestId('composer-attachment')).toHaveTextContent('cat.png');
    expect(document.body.textContent).not.toContain('second.png');
  });
});

describe('who may write (spec §6)', () => {
  it('says so in a demo chat instead of showing an input', async () => {
    const { asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab, conversation: conversation({ is_demo: true }) });
    await expect.element(page.getByText('This is a demo chat')).toBeVisible();
    await expect.element(input()).not.toBeInTheDocument();
  });

  it('keeps announcements to admins with create_posts', async () => {
    const { asTab } = fakeEngine();
    const feed = conversation({ group_type: 'feed', is_community_announcements: true, is_group: true });
    await render(<Composer />, { engine: asTab, conversation: feed });
    await expect.element(page.getByText('Only community admins can send announcements.')).toBeVisible();
    await render(<Composer />, {
      engine: asTab,
      conversation: { ...feed, member: { is_admin: true, is_owner: false, permissions: { create_posts: true }, mute: null } },
    });
    await expect.element(input()).toBeVisible();
  });

  it('keeps a read-only channel to admins', async () => {
    const { asTab } = fakeEngine();
    await render(<Composer />, {
      engine: asTab,
      conversation: conversation({ group_type: 'channel', read_only: true, is_group: true }),
    });
    await expect.element(page.getByText('Only community admins can send messages.')).toBeVisible();
  });

  it('speaks Swedish', async () => {
    const { asTab } = fakeEngine();
    await render(<Composer />, { engine: asTab, conversation: conversation({ is_demo: true }), language: 'sv' });
    await expect.element(page.getByText('Det här är en demochatt')).toBeVisible();
  });
});

/** The length limit (docs/ui.md "Sending"): a quiet count-down near it, and no send past it. */
describe('the length limit', () => {
  /** Puts `text` into the input as a paste would, in one change. */
  async function paste(text: string) {
    const box = document.querySelector<HTMLTextAreaElement>('textarea.composer-input');
    if (!box) throw new Error('no message input');
    box.focus();
    await act(async () => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')?.set;
      setValue?.call(box, text);
      box.dispatchEvent(new Event('input', { bubbles: true }));
    });
  }

  it.each([
    ['en', '500', '−1,400', 'A message can be at most 10,000 characters. This one is 1,400 characters too long'],
    ['sv', '500', '−1 400', 'Ett meddelande får vara högst 10 000 tecken. Det här är 1 400 tecken för långt'],
  ] as const)('(%s) counts down near it, refuses a send past it with the reason, and keeps the text', async (language, left, over, why) => {
    const { engine, asTab } = fakeEngine();
    const root = await render(<Composer />, { engine: asTab, language });
    await paste('x'.repeat(8_000));
    // Far from the limit nothing is counted.
    expect(root.querySelector('.composer-counter')).toBeNull();

    await paste('x'.repeat(9_500));
    await expect.poll(() => root.querySelector('.composer-counter [aria-hidden]')?.textContent).toBe(left);

    const long = 'y'.repeat(11_400);
    await paste(long);
    await expect.poll(() => root.querySelector('.composer-counter [aria-hidden]')?.textContent?.replace(/\s/g, ' ')).toBe(over.replace(/\s/g, ' '));
    await userEvent.keyboard('{Enter}');
    const alertText = () => root.querySelector('[role="alert"]')?.textContent?.replace(/\s/g, ' ') ?? '';
    await expect.poll(alertText).toContain(why.replace(/\s/g, ' '));
    const send = root.querySelector<HTMLButtonElement>('.composer-send');
    expect(send?.disabled).toBe(false);
    await act(async () => send?.click());
    expect(engine.sendMessage).not.toHaveBeenCalled();
    const box = document.querySelector<HTMLTextAreaElement>('textarea.composer-input');
    expect(box?.value).toBe(long);
    expect(box?.getAttribute('aria-invalid')).toBe('true');

    // Cut back under the limit, it sends.
    await paste('y'.repeat(10_000));
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => engine.sendMessage.mock.calls.length).toBe(1);
  });
});
