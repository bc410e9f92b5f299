import { act } from './support/act';
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import axe from 'axe-core';
import '../../src/ui/styles.css';
import { fakeEngine, listItem, renderApp, unmount } from './inbox-support';

afterEach(async () => {
  await unmount();
  await page.viewport(414, 896);
});

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

/** The app at a screen size, the host as wide as the screen, with the new-chat picker open. */
async function openPicker(width: number, height: number, language: 'en' | 'sv' = 'en') {
  await page.viewport(width, height);
  const fake = fakeEngine();
  fake.refresh.next.resolve();
  const { host } = await renderApp(fake.asTab, '/inbox', language);
  host.style.width = '100%';
  await userEvent.click(page.getByRole('button', { name: language === 'en' ? 'New chat' : 'Ny chatt' }));
  return fake;
}

const form = () => document.querySelector<HTMLElement>('.new-chat-form')!;
const rect = (element: Element) => element.getBoundingClientRect();
/** The part of the form the user sees: inside its scroll box and above the sticky buttons. */
function inView(element: Element) {
  const box = rect(form());
  const footer = rect(document.querySelector('.new-chat-form__footer')!);
  const r = rect(element);
  return r.top >= box.top && r.bottom <= footer.top;
}
/** Create and Cancel on screen and not covered by anything. */
function reachable(name: string) {
  const button = page.getByRole('button', { name, exact: true }).element();
  const r = rect(button);
  const onScreen = r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
  return onScreen && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === button;
}

describe('the new-chat picker', () => {
  it('shows each type with an icon and a line about it', async () => {
    await openPicker(1280, 800);
    for (const [name, line] of [
      ['One-to-one chat', 'Chat with one person by their phone number'],
      ['New group', 'A chat with several people; everyone can write'],
      ['New broadcast group', 'You post to many people; they reply only to you'],
    ]) {
      const option = page.getByRole('button', { name, exact: true });
      await expect.element(option).toHaveAccessibleDescription(line);
      expect(option.element().querySelector('svg')).not.toBeNull();
    }
  });
});

describe('the one-to-one form', () => {
  it('asks for the person’s name and phone, with no "Member 1"', async () => {
    await openPicker(390, 844);
    await userEvent.click(page.getByRole('button', { name: 'One-to-one chat' }));
    await expect.element(page.getByText('Who do you want to chat with?')).toBeVisible();
    await expect.element(page.getByRole('textbox', { name: 'Their name' })).toBeVisible();
    await expect.element(page.getByRole('textbox', { name: 'Their phone number' })).toBeVisible();
    expect(document.body.textContent).not.toContain('Member 1');
    expect(page.getByRole('group').elements()).toHaveLength(0);
  });
});

describe('the group and broadcast forms', () => {
  it('the form focus on error: the first field in error gets the focus and is scrolled into view', async () => {
    await openPicker(1280, 800);
    await userEvent.click(page.getByRole('button', { name: 'New group' }));
    for (let i = 0; i < 3; i++) await userEvent.click(page.getByRole('button', { name: 'Add more members' }));
    expect(form().scrollHeight).toBeGreaterThan(form().clientHeight);
    // The empty form, submitted from the bottom: the group's name is the first field in error.
    form().scrollTop = form().scrollHeight;
    await userEvent.click(page.getByRole('button', { name: 'Create' }));
    const groupName = page.getByRole('textbox', { name: 'Group name' });
    await expect.element(groupName).toHaveFocus();
    await expect.element(groupName).toHaveAccessibleDescription('Name cannot be empty');
    expect(inView(groupName.element().closest('.mx-field')!)).toBe(true);

    // A name, and no member: the first member's name, told why.
    await userEvent.fill(groupName, 'Walkers');
    form().scrollTop = form().scrollHeight;
    await userEvent.click(page.getByRole('button', { name: 'Create' }));
    const first = page.getByRole('textbox', { name: 'Name of member 1', exact: true });
    await expect.element(first).toHaveFocus();
    await expect.element(first).toHaveAccessibleDescription('Add at least one member with a name and a phone number');
    expect(inView(first.element())).toBe(true);

    // A half row far down: its empty phone, above the buttons, with its error.
    await userEvent.fill(first, 'Anna');
    await userEvent.fill(page.getByRole('textbox', { name: 'Phone number of member 1', exact: true }), '0701234561');
    await userEvent.fill(page.getByRole('textbox', { name: 'Name of member 11', exact: true }), 'Half');
    form().scrollTop = 0;
    await userEvent.click(page.getByRole('button', { name: 'Create' }));
    const phone = page.getByRole('textbox', { name: 'Phone number of member 11', exact: true });
    await expect.element(phone).toHaveFocus();
    await expect.element(phone).toHaveAttribute('aria-invalid', 'true');
    await expect.element(phone).toHaveAccessibleDescription('Phone number is required');
    expect(inView(phone.element().closest('.mx-field')!)).toBe(true);
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    it(`keeps Create and Cancel reachable however long the form is, at ${width} px`, async () => {
      await openPicker(width, height);
      await userEvent.click(page.getByRole('button', { name: /^New broadcast group/ }));
      for (let i = 0; i < 4; i++) await userEvent.click(page.getByRole('button', { name: 'Add more members' }));
      expect(form().scrollHeight).toBeGreaterThan(form().clientHeight);
      for (const top of [0, form().scrollHeight / 2, form().scrollHeight]) {
        form().scrollTop = top;
        expect(reachable('Create')).toBe(true);
        expect(reachable('Cancel')).toBe(true);
      }
    });
  }

  it('has compact member rows: side by side when wide, stacked at 390 px, removed with a named icon button', async () => {
    await openPicker(1280, 800);
    await userEvent.click(page.getByRole('button', { name: /^New group/ }));
    const name1 = page.getByRole('textbox', { name: 'Name of member 1', exact: true });
    const phone1 = page.getByRole('textbox', { name: 'Phone number of member 1', exact: true });
    expect(rect(phone1.element()).top).toBe(rect(name1.element()).top);
    expect(rect(phone1.element()).left).toBeGreaterThan(rect(name1.element()).right);
    // Each remove is an icon button named after its row; no underlined "Remove member N" text.
    const remove2 = page.getByRole('button', { name: 'Remove member 2' });
    await expect.element(remove2).toBeVisible();
    expect(remove2.element().textContent).toBe('');
    expect(remove2.element().querySelector('svg')).not.toBeNull();
    expect(page.getByText(/Remove member/).elements()).toHaveLength(0);
    await userEvent.fill(page.getByRole('textbox', { name: 'Name of member 3', exact: true }), 'Sara');
    await userEvent.click(remove2);
    await expect.element(page.getByRole('textbox', { name: 'Name of member 2', exact: true })).toHaveValue('Sara');
    expect(page.getByRole('textbox', { name: /^Name of member/ }).elements()).toHaveLength(2);

    const { violations } = await axe.run(form(), { resultTypes: ['violations'] });
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

    await page.viewport(390, 844);
    await expect.poll(() => rect(phone1.element()).top).toBeGreaterThanOrEqual(rect(name1.element()).bottom);
    expect(rect(page.getByRole('button', { name: 'Remove member 1' }).element()).left).toBeGreaterThan(rect(name1.element()).right);
  });
});
