import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { fakeEngine, listItem, renderApp, unmount } from './inbox-support';

afterEach(unmount);

const discardDialog = () => page.getByRole('dialog', { name: 'Discard this group? What you typed will be lost.' });

async function openGroupForm() {
  const fake = fakeEngine();
  fake.refresh.next.resolve();
  await renderApp(fake.asTab);
  await userEvent.click(page.getByRole('button', { name: 'New chat' }));
  await userEvent.click(page.getByRole('button', { name: /^New group/ }));
  await userEvent.fill(page.getByLabelText('Group name'), 'Walkers');
  return fake;
}

describe('leaving a typed-in group form', () => {
  it('asks in the app’s own dialog, starting on Keep editing, and keeps focus inside', async () => {
    await openGroupForm();
    await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
    await expect.element(discardDialog()).toHaveAttribute('aria-modal', 'true');
    await expect.element(page.getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(page.getByRole('button', { name: 'Discard' })).toHaveFocus();
    await userEvent.keyboard('{Tab}');
    await expect.element(page.getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    await expect.element(discardDialog()).not.toBeInTheDocument();
    await expect.element(page.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await expect.element(page.getByLabelText('Group name')).toHaveValue('Walkers');
    // Keep editing does the same, focus back on what asked (here Back).
    await userEvent.click(page.getByRole('button', { name: 'Back' }));
    await userEvent.click(page.getByRole('button', { name: 'Keep editing' }));
    await expect.element(discardDialog()).not.toBeInTheDocument();
    await expect.element(page.getByRole('button', { name: 'Back' })).toHaveFocus();
  });

  it('keeps the form on a press outside the dialog', async () => {
    await openGroupForm();
    await userEvent.click(page.getByRole('button', { name: 'Back' }));
    await expect.element(discardDialog()).toBeVisible();
    await userEvent.click(document.body, { position: { x: 3, y: 3 } });
    await expect.element(discardDialog()).not.toBeInTheDocument();
    await expect.element(page.getByLabelText('Group name')).toHaveValue('Walkers');
  });

  it('leaves the form on Discard', async () => {
    await openGroupForm();
    await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
    await userEvent.click(page.getByRole('button', { name: 'Discard' }));
    await expect.element(discardDialog()).not.toBeInTheDocument();
    await expect.element(page.getByLabelText('Group name')).not.toBeInTheDocument();
  });

  it('asks nothing when nothing was typed', async () => {
    const fake = fakeEngine();
    fake.refresh.next.resolve();
    await renderApp(fake.asTab);
    await userEvent.click(page.getByRole('button', { name: 'New chat' }));
    await userEvent.click(page.getByRole('button', { name: /^New group/ }));
    await userEvent.click(page.getByRole('button', { name: 'Cancel' }));
    await expect.element(page.getByLabelText('Group name')).not.toBeInTheDocument();
    expect(discardDialog().query()).toBeNull();
  });
});

describe('communities without the countries list', () => {
  it('follow the country code: offered to 62, not to 46', async () => {
    const items = [listItem(1, 'Erik'), listItem(2, 'Book Club', { is_group: true })];
    const indonesia = fakeEngine('62');
    await act(async () => indonesia.countries.next({ countries: [], status: 'error', error: { status: 0, message: 'Failed to fetch countries', fallback: true, call: 'countries' } as never }));
    indonesia.conversations.next(items);
    await renderApp(indonesia.asTab);
    await expect.element(page.getByRole('tab', { name: 'Communities' })).toBeVisible();

    const sweden = fakeEngine('46');
    sweden.countries.next({ countries: [], status: 'error', error: { status: 0, message: 'Failed to fetch countries', fallback: true, call: 'countries' } as never });
    sweden.conversations.next(items);
    await renderApp(sweden.asTab);
    await expect.element(page.getByRole('tab', { name: 'Unread' })).toBeVisible();
    expect(page.getByRole('tab', { name: 'Communities' }).query()).toBeNull();
  });
});
