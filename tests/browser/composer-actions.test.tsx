import { act } from './support/act';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { MessageActions } from '../../src/ui/chat/actions/MessageActions';
import { ReactionBar } from '../../src/ui/chat/actions/ReactionBar';
import { MediaViewer } from '../../src/ui/chat/media/MediaViewer';
import { conversation, fakeEngine, message, OTHER, render, SELF, ui, unmount } from './composer-support';

afterEach(async () => {
  vi.useRealTimers();
  await unmount();
});

const actionsButton = () => page.getByRole('button', { name: 'Message actions' });
const menu = () => page.getByRole('menu');

describe('the message action menu', () => {
  it('offers the quick reactions, reply, edit, copy and delete on an own message, moves with the arrows and closes on Escape', async () => {
    const { asTab } = fakeEngine();
    await render(<MessageActions message={message()} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await expect.element(menu()).toBeVisible();
    await expect.element(actionsButton()).toHaveAttribute('aria-expanded', 'true');
    for (const name of [
      'thumbs up',
      'thumbs down',
      'praying hands',
      'raised hands',
      'laughing',
      'loving face',
      'surprised',
      'crying',
      'party',
      'heart',
    ]) {
      await expect.element(page.getByRole('menuitemcheckbox', { name: `React with ${name}` })).toBeVisible();
    }
    for (const name of ['Reply', 'Edit', 'Copy', 'Delete']) {
      await expect.element(page.getByRole('menuitem', { name })).toBeVisible();
    }
    await expect.element(page.getByRole('menuitemcheckbox', { name: 'React with thumbs up' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(page.getByRole('menuitemcheckbox', { name: 'React with thumbs down' })).toHaveFocus();
    await userEvent.keyboard('{End}');
    await expect.element(page.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    await expect.element(page.getByRole('menuitemcheckbox', { name: 'React with thumbs up' })).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    await expect.element(page.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect.element(menu()).not.toBeInTheDocument();
    await expect.element(actionsButton()).toHaveFocus();
  });

  it('closes on a press outside it', async () => {
    const { asTab } = fakeEngine();
    await render(<MessageActions message={message()} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await expect.element(menu()).toBeVisible();
    await userEvent.click(document.body, { position: { x: 5, y: 5 } });
    await expect.element(menu()).not.toBeInTheDocument();
  });

  it('shows "Too old to edit" disabled on an own message past 45 minutes, and no edit on another’s', async () => {
    const { asTab } = fakeEngine();
    const old = message({ created_at: String(Math.floor(Date.now() / 1000) - 46 * 60) });
    await render(<MessageActions message={old} />, { engine: asTab });
    await userEvent.click(actionsButton());
    const tooOld = page.getByRole('menuitem', { name: 'Too old to edit' });
    await expect.element(tooOld).toBeVisible();
    await expect.element(tooOld).toHaveAttribute('aria-disabled', 'true');
    await expect.element(page.getByRole('menuitem', { name: 'Edit', exact: true })).not.toBeInTheDocument();

    await render(<MessageActions message={message({ user_id: OTHER })} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await expect.element(menu()).toBeVisible();
    await expect.element(page.getByRole('menuitem', { name: 'Edit', exact: true })).not.toBeInTheDocument();
    await expect.element(page.getByRole('menuitem', { name: 'Too old to edit' })).not.toBeInTheDocument();
  });

  it('starts a reply and an edit through the chat’s shared state', async () => {
    const { asTab } = fakeEngine();
    const own = message({ id: 5 });
    await render(<MessageActions message={own} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitem', { name: 'Reply' }));
    expect(ui.current?.replyTo?.id).toBe(5);
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitem', { name: 'Edit', exact: true }));
    expect(ui.current?.editing?.id).toBe(5);
    expect(ui.current?.replyTo).toBeNull();
  });

  it('offers no reply in a community channel to a member, and does to an admin', async () => {
    const { asTab } = fakeEngine();
    const channel = conversation({ group_type: 'channel', is_group: true });
    await render(<MessageActions message={message({ user_id: OTHER })} />, { engine: asTab, conversation: channel });
    await userEvent.click(actionsButton());
    await expect.element(menu()).toBeVisible();
    await expect.element(page.getByRole('menuitem', { name: 'Reply' })).not.toBeInTheDocument();
    await render(<MessageActions message={message({ user_id: OTHER })} />, {
      engine: asTab,
      conversation: { ...channel, member: { is_admin: true, is_owner: false, permissions: { create_posts: false }, mute: null } },
    });
    await userEvent.click(actionsButton());
    await expect.element(page.getByRole('menuitem', { name: 'Reply' })).toBeVisible();
  });

  it('copies the text to the clipboard and says so', async () => {
    const { asTab } = fakeEngine();
    const written: string[] = [];
    const spy = vi.spyOn(navigator.clipboard, 'writeText').mockImplementation(async (text: string) => {
      written.push(text);
    });
    try {
      await render(<MessageActions message={message({ message: 'copy me' })} />, { engine: asTab });
      await userEvent.click(actionsButton());
      await userEvent.click(page.getByRole('menuitem', { name: 'Copy' }));
      expect(written).toEqual(['copy me']);
      await expect.element(page.getByRole('status')).toHaveTextContent('Message copied');
    } finally {
      spy.mockRestore();
    }
  });

  it('reacts from the menu and takes a given reaction back', async () => {
    const { engine, asTab } = fakeEngine();
    const liked = message({ reactions: [{ reaction: '👍', users: [{ user_id: SELF, set_at: '1' }] }] });
    await render(<MessageActions message={liked} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await expect.element(page.getByRole('menuitemcheckbox', { name: 'React with thumbs up' })).toBeChecked();
    await userEvent.click(page.getByRole('menuitemcheckbox', { name: 'React with heart' }));
    expect(engine.react).toHaveBeenLastCalledWith(10, 100, '❤️', true);
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitemcheckbox', { name: 'React with thumbs up' }));
    expect(engine.react).toHaveBeenLastCalledWith(10, 100, '👍', false);
  });
});

describe('the delete dialog', () => {
  it('is modal, keeps focus inside, closes on Escape with focus back on the menu button', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<MessageActions message={message()} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitem', { name: 'Delete' }));
    const dialog = page.getByRole('dialog', { name: 'Delete message?' });
    await expect.element(dialog).toHaveAttribute('aria-modal', 'true');
    const everybody = page.getByRole('button', { name: 'Delete for everybody' });
    // The safe choice has focus first, not the destructive one.
    await expect.element(page.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(everybody).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(page.getByRole('button', { name: 'Delete for me' })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(page.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    await expect.element(page.getByRole('button', { name: 'Delete for me' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    await expect.element(actionsButton()).toHaveFocus();
    expect(engine.deleteMessages).not.toHaveBeenCalled();
  });

  it('offers only "Delete for me" on another’s message in a one-to-one chat, and hides it', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<MessageActions message={message({ user_id: OTHER })} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitem', { name: 'Delete' }));
    await expect.element(page.getByRole('button', { name: 'Delete for everybody' })).not.toBeInTheDocument();
    await userEvent.click(page.getByRole('button', { name: 'Delete for me' }));
    expect(engine.hideMessages).toHaveBeenCalledWith(10, [100]);
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers no "Delete for me" on a pinned message', async () => {
    const { asTab } = fakeEngine();
    await render(<MessageActions message={message({ pinned: true })} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitem', { name: 'Delete' }));
    await expect.element(page.getByRole('button', { name: 'Delete for everybody' })).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Delete for me' })).not.toBeInTheDocument();
  });

  it('shows a refusal in the dialog and stays open; a press outside closes it', async () => {
    const { engine, asTab } = fakeEngine();
    engine.deleteMessages.mockRejectedValueOnce({
      name: 'EngineError',
      status: 0,
      message: 'Failed to delete messages',
      fallback: 'Failed to delete messages',
      call: 'deleteMessages',
    });
    await render(<MessageActions message={message()} />, { engine: asTab });
    await userEvent.click(actionsButton());
    await userEvent.click(page.getByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(page.getByRole('button', { name: 'Delete for everybody' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to delete messages');
    await expect.element(page.getByRole('dialog')).toBeVisible();
    await userEvent.click(document.body, { position: { x: 3, y: 3 } });
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('the reaction bar', () => {
  const reacted = message({
    reactions: [
      { reaction: '👍', users: [{ user_id: OTHER, set_at: '1' }, { user_id: SELF, set_at: '2' }] },
      { reaction: '🎉', users: [{ user_id: OTHER, set_at: '1' }] },
    ],
  });

  it('shows each reaction with its count, pressed where the user reacted, and toggles', async () => {
    const { engine, asTab } = fakeEngine();
    await render(<ReactionBar message={reacted} />, { engine: asTab });
    const thumbs = page.getByRole('button', { name: '👍 2 reactions' });
    const party = page.getByRole('button', { name: '🎉 1 reaction' });
    await expect.element(thumbs).toHaveAttribute('aria-pressed', 'true');
    await expect.element(party).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(thumbs);
    expect(engine.react).toHaveBeenLastCalledWith(10, 100, '👍', false);
    await userEvent.click(party);
    expect(engine.react).toHaveBeenLastCalledWith(10, 100, '🎉', true);
  });

  it('names who reacted 300 ms after a hover, and hides the names 100 ms after leaving', async () => {
    const { asTab } = fakeEngine();
    await render(<ReactionBar message={reacted} />, { engine: asTab });
    const thumbs = page.getByRole('button', { name: '👍 2 reactions' });
    const tooltip = () => document.querySelector('[role="tooltip"]');
    // The component's timers run on a clock the test moves by hand.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await userEvent.hover(thumbs);
    await act(async () => vi.advanceTimersByTime(250));
    expect(tooltip()).toBeNull();
    await act(async () => vi.advanceTimersByTime(100));
    expect(tooltip()?.textContent).toBe('Reacted with 👍: Erik, You');
    expect(thumbs.element().getAttribute('aria-describedby')).toBe(tooltip()?.id);
    await userEvent.unhover(thumbs);
    await act(async () => vi.advanceTimersByTime(50));
    expect(tooltip()).not.toBeNull();
    await act(async () => vi.advanceTimersByTime(50));
    expect(tooltip()).toBeNull();
  });

  it('shows no names in a community channel', async () => {
    const { asTab } = fakeEngine();
    await render(<ReactionBar message={reacted} />, {
      engine: asTab,
      conversation: conversation({ group_type: 'channel', is_group: true }),
    });
    const thumbs = page.getByRole('button', { name: '👍 2 reactions' });
    await userEvent.hover(thumbs);
    // Past the show delay: nothing appears.
    await act(() => new Promise((resolve) => setTimeout(resolve, 400)));
    await expect.element(page.getByRole('tooltip')).not.toBeInTheDocument();
  });
});

describe('the media viewer', () => {
  const PIXEL =
    'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

  it('loads an image, and closes on Escape', async () => {
    const { asTab } = fakeEngine();
    await render(<MediaViewer />, { engine: asTab });
    await act(async () =>
      ui.current?.openMedia(message({ attachment: { type: 'image', url: PIXEL, name: 'pixel.png' } })),
    );
    const dialog = page.getByRole('dialog', { name: 'Media viewer' });
    await expect.element(dialog).toHaveAttribute('data-state', 'loaded');
    await expect.element(page.getByRole('img', { name: 'pixel.png' })).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    expect(ui.current?.media).toBeNull();
  });

  it('shows the loading state until the picture has loaded', async () => {
    const { asTab } = fakeEngine();
    await render(<MediaViewer />, { engine: asTab });
    // The picture's src is held back until the test lets it through: the load cannot win a race.
    const held: HTMLImageElement[] = [];
    const setAttribute = Element.prototype.setAttribute;
    const holdAttribute = vi.spyOn(Element.prototype, 'setAttribute').mockImplementation(function (this: Element, name, value) {
      if (this instanceof HTMLImageElement && name === 'src') held.push(this);
      else setAttribute.call(this, name, value);
    });
    const holdProperty = vi.spyOn(HTMLImageElement.prototype, 'src', 'set').mockImplementation(function (this: HTMLImageElement) {
      held.push(this);
    });
    try {
      await act(async () =>
        ui.current?.openMedia(message({ attachment: { type: 'image', url: PIXEL, name: 'pixel.png' } })),
      );
    } finally {
      holdAttribute.mockRestore();
      holdProperty.mockRestore();
    }
    const dialog = page.getByRole('dialog', { name: 'Media viewer' });
    await expect.element(dialog).toHaveAttribute('data-state', 'loading');
    await expect.element(dialog).toHaveAttribute('aria-busy', 'true');
    await expect.element(page.getByRole('status')).toHaveTextContent('Loading');
    const picture = document.querySelector<HTMLImageElement>('.media-dialog img');
    expect(picture).not.toBeNull();
    expect(held).toContain(picture);
    await expect.element(page.getByRole('img', { name: 'pixel.png' })).toHaveClass('media-hidden');

    setAttribute.call(picture as HTMLImageElement, 'src', PIXEL);
    await expect.element(dialog).toHaveAttribute('data-state', 'loaded');
    await expect.element(dialog).toHaveAttribute('aria-busy', 'false');
    expect(page.getByRole('status').query()).toBeNull();
    await expect.element(page.getByRole('img', { name: 'pixel.png' })).not.toHaveClass('media-hidden');
  });

  it('gives focus back to what opened it', async () => {
    const { asTab } = fakeEngine();
    const picture = message({ attachment: { type: 'image', url: PIXEL } });
    await render(
      <>
        <button type="button" onClick={() => ui.current?.openMedia(picture)}>
          open picture
        </button>
        <MediaViewer />
      </>,
      { engine: asTab },
    );
    await userEvent.click(page.getByRole('button', { name: 'open picture' }));
    await expect.element(page.getByRole('button', { name: 'Close media viewer' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
    await expect.element(page.getByRole('button', { name: 'open picture' })).toHaveFocus();
  });

  it('says "Failed to load media" when the file does not load, and closes on a press outside', async () => {
    const { asTab } = fakeEngine();
    await render(<MediaViewer />, { engine: asTab });
    await act(async () =>
      ui.current?.openMedia(message({ attachment: { type: 'image', url: 'data:image/png;base64,AAAA' } })),
    );
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to load media');
    await userEvent.click(document.body, { position: { x: 3, y: 3 } });
    await expect.element(page.getByRole('dialog')).not.toBeInTheDocument();
  });
});
