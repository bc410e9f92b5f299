import { useState } from 'react';
import { act } from './support/act';
import { BehaviorSubject } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { ConversationListItem, CountriesView, EngineError, SessionView, TabEngine } from '../../src/engine/api';
import type { Conversation, ConversationUser } from '../../src/protocol/entities';
import { RightPanel } from '../../src/ui/main/RightPanel';
import type { RightPanelView } from '../../src/ui/main/rightPanel';
import { defaultImage, member as entityMember } from './support/entities';
import { fakeTabEngine } from './support/fakeEngine';
import { mount, unmountAll } from './support/mount';

/**
 * The right panel around a fake engine whose `call` the test answers: what the panel sends, and what it
 * does not send (an unchanged name, a refused file), which the e2e tests cannot see.
 */

const image = defaultImage;
const member = (id: number, nickname: string, isAdmin = false): ConversationUser =>
  entityMember(id, nickname, { isAdmin, phone: `+4670000000${id}` });

function group(patch: Partial<Conversation> = {}): ConversationListItem {
  const conversation = {
    id: 7,
    name: 'Book club',
    is_group: true,
    group_type: 'normal',
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    users: [member(1, 'Anna', true), member(2, 'Erik')],
    member: { is_owner: true, is_admin: true, permissions: { create_posts: false }, mute: null },
    admins: [1],
    member_count: 2,
    avatar: image,
    image,
    ...patch,
  } as Conversation;
  return { conversation, unreadCount: 0, isUnread: false, preview: null, sortTime: 0 };
}

const refusal = (call: string, message: string, fallback = message): EngineError => ({
  name: 'EngineError',
  status: 403,
  message,
  fallback,
  call,
});

function fakeEngine() {
  const session = new BehaviorSubject<SessionView>({
    status: 'ready',
    userId: 1,
    nickname: 'Anna',
    phone: '+46700000001',
    countryCode: '46',
    avatarUrl: null,
  });
  const conversation = new BehaviorSubject<ConversationListItem | null>(group());
  const countries = new BehaviorSubject<CountriesView>({ countries: [], status: 'loaded', error: null });
  const call = vi.fn(async (..._args: unknown[]): Promise<unknown> => ({}));
  const muteConversation = vi.fn(async (..._args: unknown[]): Promise<unknown> => null);
  const { asTab } = fakeTabEngine({ session, conversation, countries }, { call, muteConversation });
  return { conversation, call, muteConversation, asTab };
}

afterEach(unmountAll);

/** The panel as MainScreen holds it: its view is state; closing and leaving are recorded. */
async function renderPanel(engine: TabEngine, language: 'en' | 'sv' = 'en') {
  const onClose = vi.fn();
  const onGone = vi.fn();
  const views: RightPanelView[] = [];
  function Harness() {
    const [view, setView] = useState<RightPanelView>({ kind: 'chatSettings' });
    views.push(view);
    return <RightPanel conversationId={7} view={view} onView={setView} onClose={onClose} onGone={onGone} />;
  }
  await mount(<Harness />, { engine, language, style: 'height: 700px; width: 400px; display: flex' });
  return { onClose, onGone, views };
}

describe('the chat settings panel', () => {
  it('sends nothing for an unchanged name, the trimmed new one otherwise, and shows a refusal inline', async () => {
    const fake = fakeEngine();
    const { onClose } = await renderPanel(fake.asTab);
    await userEvent.click(page.getByRole('button', { name: 'Rename group' }));
    const input = page.getByRole('textbox', { name: 'Group name' });
    await userEvent.fill(input, ' Book club  ');
    await userEvent.keyboard('{Enter}');
    await expect.element(input).not.toBeInTheDocument();
    expect(fake.call).not.toHaveBeenCalled();

    await userEvent.click(page.getByRole('button', { name: 'Rename group' }));
    await userEvent.fill(input, 'Draft');
    await userEvent.keyboard('{Escape}');
    await expect.element(input).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(fake.call).not.toHaveBeenCalled();

    fake.call.mockRejectedValueOnce(refusal('updateConversation', 'Failed to update conversation settings'));
    await userEvent.click(page.getByRole('button', { name: 'Rename group' }));
    await userEvent.fill(input, '  Readers  ');
    await userEvent.click(page.getByRole('button', { name: 'Save name' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('Failed to update conversation settings');
    expect(fake.call).toHaveBeenLastCalledWith('updateConversation', 7, { name: 'Readers' });
    await expect.element(input).toHaveAttribute('aria-invalid', 'true');

    // Accepted: the editor closes, and the name changes when the engine's conversation does.
    await userEvent.click(page.getByRole('button', { name: 'Save name' }));
    await expect.element(input).not.toBeInTheDocument();
    await act(async () => fake.conversation.next(group({ name: 'Readers' })));
    await expect.element(page.getByRole('heading', { name: 'Readers' })).toBeVisible();
  });

  it('checks a picture before uploading it, then sets it as the group’s image', async () => {
    const fake = fakeEngine();
    await renderPanel(fake.asTab);
    const input = document.querySelector<HTMLInputElement>('.right-panel input[type="file"]');
    if (!input) throw new Error('no file input');
    const choose = async (file: File) => {
      await act(async () => {
        const list = new DataTransfer();
        list.items.add(file);
        input.files = list.files;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
    };
    await choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('Please select an image');
    await choose(new File([new Uint8Array(3_145_729)], 'big.png', { type: 'image/png' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('The image is too big');
    expect(fake.call).not.toHaveBeenCalled();

    fake.call.mockResolvedValueOnce({ image: { id: 55, url: '/files/a', thumbnail: '/files/a' } });
    await choose(new File([new Uint8Array(3_145_728)], 'ok.png', { type: 'image/png' }));
    await expect.poll(() => fake.call.mock.calls.map((c) => c[0])).toEqual(['uploadImage', 'updateConversation']);
    expect(fake.call.mock.calls[1]).toEqual(['updateConversation', 7, { imageId: 55 }]);
    await expect.element(page.getByRole('alert')).not.toBeInTheDocument();
  });

  it('closes on Escape, unless a dialog is open, which Escape closes alone', async () => {
    const fake = fakeEngine();
    const { onClose, onGone } = await renderPanel(fake.asTab);
    await userEvent.click(page.getByRole('button', { name: 'Delete group' }));
    const dialog = page.getByRole('dialog');
    await expect.element(dialog).toHaveAttribute('aria-modal', 'true');
    await userEvent.keyboard('{Escape}');
    await expect.element(dialog).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(document.activeElement?.textContent).toBe('Delete group');

    // A refused delete shows the engine's text in the dialog; an accepted one leaves the chat.
    fake.call.mockRejectedValueOnce(refusal('deleteConversation', 'Failed to delete group'));
    await userEvent.click(page.getByRole('button', { name: 'Delete group' }));
    await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
    await expect.element(dialog.getByRole('alert')).toHaveTextContent('Failed to delete group');
    expect(onGone).not.toHaveBeenCalled();
    await userEvent.click(page.getByRole('button', { name: 'Delete', exact: true }));
    await expect.poll(() => onGone.mock.calls.length).toBe(1);
    expect(fake.call).toHaveBeenLastCalledWith('deleteConversation', 7);

    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('goes back from a profile when that member leaves, and offers no admin actions on oneself', async () => {
    const fake = fakeEngine();
    const { views } = await renderPanel(fake.asTab);
    await userEvent.click(page.getByRole('button', { name: /^Anna/ }));
    await expect.element(page.getByRole('heading', { name: 'User profile' })).toBeVisible();
    await expect.element(page.getByRole('button', { name: 'Remove from group' })).not.toBeInTheDocument();
    await userEvent.click(page.getByRole('button', { name: 'Back to chat settings' }));

    await userEvent.click(page.getByRole('button', { name: /^Erik/ }));
    await expect.element(page.getByRole('button', { name: 'Make admin' })).toBeVisible();
    fake.call.mockRejectedValueOnce(refusal('setAdmin', 'Failed to update user admin status'));
    await userEvent.click(page.getByRole('button', { name: 'Make admin' }));
    await userEvent.click(page.getByRole('dialog').getByRole('button', { name: 'Make admin' }));
    await expect.element(page.getByRole('dialog').getByRole('alert')).toHaveTextContent('Failed to update user admin status');
    expect(fake.call).toHaveBeenLastCalledWith('setAdmin', 7, 2, true);
    await userEvent.keyboard('{Escape}');

    // Erik is removed elsewhere: his profile gives way to the settings.
    await act(async () => fake.conversation.next(group({ users: [member(1, 'Anna', true)], member_count: 1 })));
    await expect.element(page.getByRole('heading', { name: 'Chat settings' })).toBeVisible();
    expect(views.at(-1)).toEqual({ kind: 'chatSettings' });
  });

  it('says broadcaster (sändare) in a broadcast group: the badge, the buttons and the dialogs with the same verb', async () => {
    const fake = fakeEngine();
    const broadcast = { reply_to: '1', show_numbers_to_all: '1', user_notifications_to_all: '1', all_invite: '1' };
    fake.conversation.next(group({ settings: broadcast } as Partial<Conversation>));
    await renderPanel(fake.asTab, 'sv');
    await expect.element(page.getByRole('button', { name: /^Anna/ })).toHaveTextContent(/Sändare/);
    await userEvent.click(page.getByRole('button', { name: /^Erik/ }));
    await userEvent.click(page.getByRole('button', { name: 'Gör till sändare' }));
    const dialog = page.getByRole('dialog');
    await expect.element(dialog.getByRole('heading')).toHaveTextContent('Göra Erik till sändare?');
    await expect.element(dialog).toHaveTextContent(/Erik kommer att kunna skicka till alla i gruppen/);
    expect(dialog.getByRole('button').elements().map((b) => b.textContent)).toEqual(['Avbryt', 'Gör till sändare']);
    expect(dialog.element().textContent).not.toMatch(/befordra|admin/i);
    await userEvent.click(dialog.getByRole('button', { name: 'Gör till sändare' }));
    expect(fake.call).toHaveBeenLastCalledWith('setAdmin', 7, 2, true);
    await expect.element(dialog).not.toBeInTheDocument();

    // Now a broadcaster: the way back says so too.
    await act(async () =>
      fake.conversation.next(group({ settings: broadcast, users: [member(1, 'Anna', true), member(2, 'Erik', true)] } as Partial<Conversation>)),
    );
    await userEvent.click(page.getByRole('button', { name: 'Ta bort som sändare' }));
    await expect.element(dialog.getByRole('heading')).toHaveTextContent('Ta bort Erik som sändare?');
    expect(dialog.getByRole('button').elements().map((b) => b.textContent)).toEqual(['Avbryt', 'Ta bort som sändare']);
    expect(dialog.element().textContent).not.toMatch(/degradera|admin/i);
    await userEvent.click(dialog.getByRole('button', { name: 'Ta bort som sändare' }));
    expect(fake.call).toHaveBeenLastCalledWith('setAdmin', 7, 2, false);
  });

  it('mutes from a radio group: the choice waits for the engine, says until when, and a refusal puts the old one back', async () => {
    const fake = fakeEngine();
    await renderPanel(fake.asTab, 'sv');
    const mute = page.getByRole('group', { name: 'Stäng av aviseringar' });
    await expect.element(mute.getByRole('radio', { name: 'Av' })).toBeChecked();

    let answer: (value: unknown) => void = () => undefined;
    fake.muteConversation.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    await userEvent.click(mute.getByRole('radio', { name: 'I 1 vecka' }));
    expect(fake.muteConversation).toHaveBeenLastCalledWith(7, '1w');
    await expect.element(mute.getByRole('radio', { name: 'I 1 vecka' })).toBeChecked();
    await expect.element(mute.getByTestId('mute-status')).toHaveTextContent('Sparar…');
    // The engine's conversation carries the mute (as its answer and the socket make it): until when, in Swedish.
    // A week from the real clock: the panel hides a mute that has already ended, so a fixed date would expire.
    const until = Math.floor(Date.now() / 60_000 + 7 * 24 * 60) * 60;
    await act(async () => {
      fake.conversation.next(group({ member: { is_owner: true, is_admin: true, permissions: { create_posts: false }, mute: { type: '1w', time_zone: 'Europe/Stockholm', until: String(until) } } }));
      answer(null);
    });
    const shown = new Intl.DateTimeFormat('sv', { dateStyle: 'medium', timeStyle: 'short' }).format(until * 1000);
    await expect.element(mute.getByTestId('mute-status')).toHaveTextContent(`Ljudlös till ${shown}`);

    fake.muteConversation.mockRejectedValueOnce(refusal('setMute', 'Failed to update mute settings'));
    await userEvent.click(mute.getByRole('radio', { name: 'Alltid' }));
    await expect.element(mute.getByRole('alert')).toHaveTextContent('Det gick inte att uppdatera ljudavstängningen');
    await expect.element(mute.getByRole('radio', { name: 'I 1 vecka' })).toBeChecked();
    await expect.element(mute.getByRole('radio', { name: 'Alltid' })).not.toBeChecked();
  });
});
