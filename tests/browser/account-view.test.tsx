import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { EngineError } from '../../src/engine/api';
import { act } from './support/act';
import { fakeEngine, renderApp, unmount } from './inbox-support';

afterEach(unmount);

const refusal: EngineError = {
  name: 'EngineError',
  status: 500,
  message: 'Failed to update user profile',
  fallback: 'Failed to update user profile',
  call: 'updateMe',
};

/** Picks `file` in the account page's hidden file input, as the file dialog would. */
async function choose(file: File) {
  const input = document.querySelector<HTMLInputElement>('.account input[type="file"]');
  if (!input) throw new Error('no file input');
  await act(async () => {
    const list = new DataTransfer();
    list.items.add(file);
    input.files = list.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** The account page (spec §2, issue 9) around a fake engine: what it sends, and what it refuses to send. */
describe('the account page', () => {
  it('edits the nickname with the nickname step’s rules and texts, and shows a refusal inline (Swedish)', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/profile', 'sv');
    const edit = page.getByRole('button', { name: 'Ändra smeknamn' });
    await userEvent.click(edit);
    const input = page.getByRole('textbox', { name: 'Smeknamn' });
    await expect.element(input).toHaveValue('Anna');
    const save = page.getByRole('button', { name: 'Spara smeknamn' });

    await userEvent.fill(input, '   ');
    await userEvent.click(save);
    await expect.element(page.getByRole('alert')).toHaveTextContent('Ange ett smeknamn');
    await userEvent.fill(input, 'x'.repeat(51));
    await userEvent.click(save);
    await expect.element(page.getByRole('alert')).toHaveTextContent('Smeknamnet får vara högst 50 tecken');
    // The same name, spaces aside, just closes the editor.
    await userEvent.fill(input, ' Anna ');
    await userEvent.click(save);
    await expect.element(input).not.toBeInTheDocument();
    expect(fake.engine.updateProfile).not.toHaveBeenCalled();
    await expect.element(edit).toHaveFocus();

    fake.engine.updateProfile.mockRejectedValueOnce(refusal);
    await userEvent.click(edit);
    await userEvent.fill(input, '  Annika  ');
    await userEvent.click(save);
    await expect.element(page.getByRole('alert')).toHaveTextContent('Det gick inte att uppdatera användarprofilen');
    await expect.element(input).toHaveValue('  Annika  ');
    expect(fake.engine.updateProfile).toHaveBeenLastCalledWith({ nickname: 'Annika' });

    await userEvent.click(save);
    await expect.element(input).not.toBeInTheDocument();
    await expect.element(page.getByText('Smeknamn: Annika')).toBeVisible();
  });

  it('checks a picture before sending it, sets it, and removes it', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/profile');
    await expect.element(page.getByRole('button', { name: 'Change your picture' })).toBeVisible();
    expect(page.getByRole('button', { name: 'Remove picture' }).query()).toBeNull();

    await choose(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('Please select an image');
    await choose(new File([new Uint8Array(3_145_729)], 'big.png', { type: 'image/png' }));
    await expect.element(page.getByRole('alert')).toHaveTextContent('The image is too big. Please select an image under 3 MB.');
    expect(fake.engine.updateProfile).not.toHaveBeenCalled();

    const picture = new File([new Uint8Array(3_145_728)], 'me.png', { type: 'image/png' });
    await choose(picture);
    await expect.poll(() => fake.engine.updateProfile.mock.calls).toEqual([[{ image: picture }]]);
    await expect.element(page.getByRole('alert')).not.toBeInTheDocument();
    const remove = page.getByRole('button', { name: 'Remove picture' });
    await userEvent.click(remove);
    expect(fake.engine.updateProfile).toHaveBeenLastCalledWith({ image: null });
    await expect.element(remove).not.toBeInTheDocument();
  });

  it('shows the version and environment in a development build (the test build is one)', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab, '/profile', 'sv');
    await expect.element(page.getByTestId('account-version')).toHaveTextContent('1 (bygge 20251023-0857)');
    await expect.element(page.getByTestId('account-environment')).toHaveTextContent('development');
  });
});
