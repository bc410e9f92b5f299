import axe from 'axe-core';
import { BehaviorSubject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getI18n } from 'react-i18next';
import { page, userEvent } from 'vitest/browser';
import type { AppSettings, CommentsView, MessageWindowView } from '../../src/engine/api';
import type { Comment } from '../../src/protocol/entities';
import { CommentsButton } from '../../src/ui/chat/comments/CommentsButton';
import { CommentThread } from '../../src/ui/chat/comments/CommentThread';
import { conversation, message, OTHER, render, SELF, unmount } from './composer-support';
import { act } from './support/act';
import { member } from './support/entities';
import { defaultSettings, fakeTabEngine } from './support/fakeEngine';

afterEach(unmount);

const comment = (id: number, userId: number, text: string, patch: Partial<Comment> = {}): Comment => ({
  comment_id: id,
  post_id: 100,
  parent_comment_id: null,
  channel_id: 10,
  user_id: userId,
  message: text,
  created_at: String(Math.floor(Date.now() / 1000)),
  reactions: [],
  replies_count: 0,
  client_id: null,
  ...patch,
});

/** Channel 10 with post 100 ("Kopdar Sabtu") and two comments, Erik's with one reply. */
async function openThread() {
  const post = message({ id: 100, user_id: OTHER, message: 'Kopdar Sabtu jam 10', discussion: { comments_count: 3 } });
  const comments = new BehaviorSubject<CommentsView>({
    comments: [comment(201, OTHER, 'Saya ikut!', { replies_count: 1 }), comment(202, SELF, 'Sampai jumpa')],
    participants: { [OTHER]: { user_id: OTHER, name: 'Erik', avatar: '' }, [SELF]: { user_id: SELF, name: 'Anna', avatar: '' } },
    hasOlder: false,
    loaded: true,
    pending: [],
  });
  const { engine, asTab } = fakeTabEngine(
    {
      settings: new BehaviorSubject<AppSettings>(defaultSettings()),
      messages: new BehaviorSubject<MessageWindowView>({ messages: [post], hasOlder: false, loaded: true }),
      comments,
    },
    {
      loadComments: vi.fn(async () => undefined),
      loadOlderComments: vi.fn(async () => false),
      addComment: vi.fn(async (_channel: number, _post: number, text: string, _parent?: number | null) => {
        // As the engine: blank text is refused before anything is queued.
        if (text.trim() === '') throw { name: 'EngineError', status: 400, message: 'Invalid message provided', fallback: 'x', call: 'createComment' };
        return {} as never;
      }),
      retrySend: vi.fn(async () => undefined),
      discardSend: vi.fn(async () => undefined),
      reactToComment: vi.fn(async () => ({}) as never),
    },
  );
  const channel = conversation({
    id: 10,
    name: 'Pengumuman',
    group_type: 'channel',
    is_group: true,
    users: [member(SELF, 'Anna'), member(OTHER, 'Erik')],
  });
  await render(
    <>
      <CommentsButton post={post} />
      <CommentThread />
    </>,
    { engine: asTab, conversation: channel },
  );
  const opener = page.getByRole('button', { name: '3 comments' });
  await userEvent.click(opener);
  const dialog = page.getByRole('dialog', { name: 'Comments on “Kopdar Sabtu jam 10”' });
  await expect.element(dialog).toBeInTheDocument();
  return { engine, dialog, opener, comments };
}

const focusedName = () => {
  const el = document.activeElement as HTMLElement | null;
  return el?.getAttribute('aria-label') ?? el?.textContent?.trim() ?? '';
};

describe('the comment thread overlay (keyboard)', () => {
  it('opens named after the post with the input focused; Escape closes it and focus goes back to the opener', async () => {
    const { engine, opener } = await openThread();
    await expect.element(page.getByRole('textbox', { name: 'Write a comment' })).toHaveFocus();
    expect(engine.loadComments).toHaveBeenCalledWith(10, 100);
    const { violations } = await axe.run(document.querySelector('dialog') as HTMLElement, { resultTypes: ['violations'] });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
    await expect.element(opener).toHaveFocus();
  });

  it('Tab goes through the thread in reading order and stays inside it', async () => {
    await openThread();
    const order: string[] = [];
    for (let i = 0; i < 10; i++) {
      await userEvent.keyboard('{Tab}');
      order.push(focusedName());
    }
    // Input (focused first) → wraps to Close (Send is disabled while the input is empty) → the comments'
    // controls, top to bottom.
    expect(order.slice(0, 6)).toEqual([
      'Close comments',
      'Add a reaction',
      'Reply to Erik',
      'Show 1 reply',
      'Add a reaction',
      'Reply to your comment',
    ]);
    expect(order[6]).toBe('Write a comment');
    for (let i = 0; i < 3; i++) expect(document.querySelector('dialog')?.contains(document.activeElement)).toBe(true);
  });

  it('Escape ends a reply, then closes; with the reaction menu open it closes the menu alone', async () => {
    const { opener } = await openThread();
    await userEvent.click(page.getByRole('button', { name: 'Reply to Erik' }));
    const reply = page.getByRole('textbox', { name: 'Write a reply to Erik' });
    await expect.element(reply).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('textbox', { name: 'Write a comment' })).toBeInTheDocument();
    await expect.element(page.getByRole('dialog')).toBeInTheDocument();

    const add = page.getByRole('button', { name: 'Add a reaction' }).first();
    await userEvent.click(add);
    await expect.element(page.getByRole('button', { name: 'React with thumbs up' }).first()).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('group', { name: 'Add a reaction' })).not.toBeInTheDocument();
    await expect.element(page.getByRole('dialog')).toBeInTheDocument();
    await expect.element(add).toHaveFocus();

    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
    await expect.element(opener).toHaveFocus();
  });

  it('sends with Enter (a reply to the chosen comment); a blank one cannot be sent: Send is disabled, Enter does nothing', async () => {
    const { engine } = await openThread();
    const send = page.getByRole('button', { name: 'Send comment' });
    await expect.element(send).toBeDisabled();
    await userEvent.keyboard('{Enter}');
    await userEvent.keyboard('  {Shift>}{Enter}{/Shift} ');
    await expect.element(send).toBeDisabled();
    await userEvent.keyboard('{Enter}');
    expect(engine.addComment).not.toHaveBeenCalled();
    expect(page.getByRole('alert').elements()).toHaveLength(0);
    await userEvent.keyboard('x');
    await expect.element(send).toBeEnabled();
    await userEvent.clear(page.getByRole('textbox', { name: 'Write a comment' }));
    await userEvent.click(page.getByRole('button', { name: 'Reply to Erik' }));
    await userEvent.keyboard('Terima kasih{Shift>}{Enter}{/Shift}Erik{Enter}');
    await expect.poll(() => engine.addComment.mock.calls.length).toBe(1);
    expect(engine.addComment).toHaveBeenLastCalledWith(10, 100, 'Terima kasih\nErik', 201);
    await expect.element(page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('');
  });

  it('empties at once: a second Enter cannot send the comment twice; a refused one comes back with the reason', async () => {
    const { engine } = await openThread();
    // The engine takes its time with the first (a worker round trip and a storage write).
    let answer: (value: never) => void = () => undefined;
    engine.addComment.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    await userEvent.keyboard('Halo semua{Enter}{Enter}');
    const sent = () => engine.addComment.mock.calls.filter((c) => c[2] === 'Halo semua').length;
    await expect.poll(sent).toBe(1);
    answer({} as never);
    engine.addComment.mockRejectedValueOnce({ name: 'EngineError', status: 403, message: 'Comments are turned off in this channel', fallback: 'x', call: 'createComment' });
    await userEvent.keyboard('Boleh?{Enter}');
    await expect.element(page.getByRole('textbox', { name: 'Write a comment' })).toHaveValue('Boleh?');
    await expect.element(page.getByText('Comments are turned off in this channel')).toBeInTheDocument();
  });

  it('a failed load says why with a retry, in the language shown now: a switch neither reloads nor leaves it in English', async () => {
    const { engine, opener } = await openThread();
    await userEvent.keyboard('{Escape}');
    engine.loadComments.mockRejectedValueOnce({
      name: 'EngineError',
      status: 0,
      message: 'Network error occurred while fetching post comments',
      fallback: 'Network error occurred while fetching post comments',
      call: 'getComments',
    });
    await userEvent.click(opener);
    const alert = page.getByRole('dialog').getByRole('alert');
    await expect.element(alert).toHaveTextContent('Network error occurred while fetching post comments');
    const loads = engine.loadComments.mock.calls.length;
    await act(() => getI18n().changeLanguage('sv'));
    await expect.element(alert).toHaveTextContent('Nätverksfel när kommentarerna skulle hämtas');
    expect(engine.loadComments.mock.calls.length).toBe(loads);
    await userEvent.click(page.getByRole('button', { name: 'Försök igen' }));
    await expect.poll(() => engine.loadComments.mock.calls.length).toBe(loads + 1);
    await expect.element(alert).not.toBeInTheDocument();
  });

  it('shows the user’s comments still in the outbox: sending, or not sent with the reason, Retry and Discard', async () => {
    const { engine, comments } = await openThread();
    const entry = {
      localId: 'out_1',
      userId: SELF,
      conversationId: 10,
      comment: { postId: 100, parentCommentId: null },
      clientId: 5,
      text: 'Masih dikirim',
      quotedMessageId: null,
      attachment: null,
      createdAt: Date.now(),
      status: 'pending' as const,
      error: null,
      attempts: 0,
    };
    comments.next({ ...comments.value, pending: [entry] });
    const row = page.getByRole('article', { name: 'Your comment' }).filter({ hasText: 'Masih dikirim' });
    await expect.element(row).toHaveTextContent('Sending');
    const refused = { name: 'EngineError' as const, status: 403, message: 'Comments are turned off in this channel', fallback: 'x', call: 'createComment' };
    comments.next({ ...comments.value, pending: [{ ...entry, status: 'failed', error: refused }] });
    await expect.element(row).toHaveTextContent('Not sent');
    await expect.element(row.getByRole('alert')).toHaveTextContent('Comments are turned off in this channel');
    await userEvent.click(row.getByRole('button', { name: 'Retry' }));
    expect(engine.retrySend).toHaveBeenCalledWith('out_1');
    await userEvent.click(row.getByRole('button', { name: 'Discard' }));
    expect(engine.discardSend).toHaveBeenCalledWith('out_1');
  });
});

describe('the comment reaction picker (issue 23)', () => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`at ${width} px: two rows of five, every emoji in view below the thread header, on top and pressable`, async () => {
      await page.viewport(width, height);
      try {
        const { engine } = await openThread();
        // Erik's comment is the first under the post: above it there is no room below the header.
        await userEvent.click(page.getByRole('button', { name: 'Add a reaction' }).first());
        const group = page.getByRole('group', { name: 'Add a reaction' });
        await expect.element(group).toHaveAttribute('data-placed');
        const header = (document.querySelector('.thread__header') as HTMLElement).getBoundingClientRect();
        const options = Array.from(group.element().querySelectorAll('button'));
        expect(options).toHaveLength(10);
        const boxes = options.map((o) => o.getBoundingClientRect());
        expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(2);
        for (const [i, box] of boxes.entries()) {
          expect(box.top).toBeGreaterThanOrEqual(header.bottom);
          expect(box.bottom).toBeLessThanOrEqual(window.innerHeight);
          expect(box.left).toBeGreaterThanOrEqual(0);
          expect(box.right).toBeLessThanOrEqual(window.innerWidth);
          // Nothing lies over it (no row, header or post).
          expect(options[i]?.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2))).toBe(true);
        }
        await userEvent.click(page.getByRole('button', { name: 'React with party' }));
        expect(engine.reactToComment).toHaveBeenCalledWith(10, 100, 201, '🎉', true);
        await expect.element(group).not.toBeInTheDocument();
      } finally {
        await page.viewport(1280, 800);
      }
    });
  }

  it('is a grid for the keyboard: focus starts on the first emoji, arrows move, Tab past the end goes on from its button', async () => {
    await openThread();
    const add = page.getByRole('button', { name: 'Add a reaction' }).first();
    await userEvent.click(add);
    await expect.element(page.getByRole('button', { name: 'React with thumbs up' })).toHaveFocus();
    await userEvent.keyboard('{ArrowRight}');
    await expect.element(page.getByRole('button', { name: 'React with thumbs down' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(page.getByRole('button', { name: 'React with surprised' })).toHaveFocus();
    await userEvent.keyboard('{End}{Tab}');
    await expect.element(page.getByRole('group', { name: 'Add a reaction' })).not.toBeInTheDocument();
    await expect.element(page.getByRole('button', { name: 'Reply to Erik' })).toHaveFocus();
    await userEvent.click(add);
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    await expect.element(page.getByRole('group', { name: 'Add a reaction' })).not.toBeInTheDocument();
    await expect.element(add).toHaveFocus();
  });
});
