import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { CreatedConversationAnswer } from '../../src/protocol/api';
import { call, signUp, type TestUser, useTestServer } from '../support/server';
import { CLIENT_DIR, current, openTab, signedInPerson, useChromium } from '../support/tabs';

/**
 * Spec §2: drafts of group creation and of add-members (per conversation) are kept locally: they survive
 * a reload, show in every tab of the account, and go once the chat is created or the member added.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const wide = { viewport: { width: 1300, height: 850 }, locale: 'en-US' };

async function openGroupForm(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'New chat' }).click();
  await page.getByRole('button', { name: /^New group/ }).click();
  await expect.poll(() => page.getByLabel('Group name').isVisible()).toBe(true);
}

/** What the group form shows: its name, then each row's name and phone. */
async function groupForm(page: Page): Promise<string[]> {
  const values = [await page.getByLabel('Group name').inputValue()];
  const rows = await page.getByLabel(/^Name of member/).count();
  for (let n = 1; n <= rows; n++) {
    values.push(await page.getByLabel(`Name of member ${n}`, { exact: true }).inputValue());
    values.push(await page.getByLabel(`Phone number of member ${n}`, { exact: true }).inputValue());
  }
  return values;
}

async function groupOf(token: string, name: string, member: TestUser, memberName: string): Promise<number> {
  const form = {
    name,
    force_group: '1',
    'member[0][name]': memberName,
    'member[0][type]': 'phone_nr',
    'member[0][value]': member.phone,
  };
  const answer = await call<CreatedConversationAnswer>(s.url, 'POST', '/v2/conversations', { token, form });
  return answer.data.conversation.id;
}

describe('form drafts', () => {
  it('keeps the new-group form across a reload and in a second tab, until the group is created', async () => {
    const [one, two] = [await signUp(s.url, 'One'), await signUp(s.url, 'Two')];
    const me = await signedInPerson(chromium, s, 'Planner', { context: wide });
    const { page } = me;
    await openGroupForm(page);
    await page.getByLabel('Group name').fill('Hikers');
    await page.getByLabel('Name of member 1', { exact: true }).fill('One');
    await page.getByLabel('Phone number of member 1', { exact: true }).fill(one.phone);
    await page.getByLabel('Name of member 2', { exact: true }).fill('Two');
    await page.getByLabel('Phone number of member 2', { exact: true }).fill(two.phone);
    const typed = ['Hikers', 'One', one.phone, 'Two', two.phone, '', ''];
    // Saved in the engine a moment after the typing stops.
    await expect.poll(async () => (await current(page, 'formDrafts')).newGroup?.name).toBe('Hikers');

    await page.reload();
    await openGroupForm(page);
    await expect.poll(() => groupForm(page)).toEqual(typed);

    const second = await openTab(me.context, s.url);
    await openGroupForm(second);
    await expect.poll(() => groupForm(second)).toEqual(typed);

    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/inbox\/\d+$/);
    await expect.poll(async () => Object.keys(await current(page, 'formDrafts'))).toEqual([]);
    // The other tab's untouched form follows: the draft is gone there too.
    await expect.poll(() => second.getByLabel('Group name').inputValue()).toBe('');
    await openGroupForm(page);
    expect(await groupForm(page)).toEqual(['', '', '', '', '', '', '']);
  });

  it('keeps the one-to-one form apart from the group form; discarding a group form drops its draft', async () => {
    const me = await signedInPerson(chromium, s, 'Chooser', { context: wide });
    const { page } = me;
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('button', { name: /^One-to-one chat/ }).click();
    await page.getByLabel('Their name').fill('Friend');
    await page.getByLabel('Their phone number').fill('0701112233');
    // Leaving the form saves what is waiting at once, without the pause.
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(async () => (await current(page, 'formDrafts')).newPrivate).toEqual({
      name: 'Friend',
      phone: '0701112233',
      members: [],
    });

    await page.getByRole('button', { name: /^New group/ }).click();
    await expect.poll(() => page.getByLabel('Group name').isVisible()).toBe(true);
    expect(await groupForm(page)).toEqual(['', '', '', '', '', '', '']);
    await page.getByLabel('Group name').fill('Soon gone');
    await expect.poll(async () => (await current(page, 'formDrafts')).newGroup?.name).toBe('Soon gone');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await expect.poll(async () => Object.keys(await current(page, 'formDrafts'))).toEqual(['newPrivate']);

    await page.reload();
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.getByRole('button', { name: /^One-to-one chat/ }).click();
    await expect.poll(() => page.getByLabel('Their name').inputValue()).toBe('Friend');
    expect(await page.getByLabel('Their phone number').inputValue()).toBe('0701112233');
  });

  it('keeps an add-member draft per conversation', async () => {
    const [bo, cy] = [await signUp(s.url, 'Bo'), await signUp(s.url, 'Cy')];
    const me = await signedInPerson(chromium, s, 'Ann', { context: wide });
    const { page } = me;
    const first = await groupOf(me.user.token, 'First', bo, 'Bo');
    const other = await groupOf(me.user.token, 'Other', bo, 'Bo');
    const panel = page.locator('aside.right-panel');
    const openAddMember = async (conversationId: number, heading: string) => {
      await page.goto(`${s.url}/inbox/${conversationId}`);
      await expect.poll(() => page.getByRole('heading', { name: heading, level: 2 }).count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Chat settings', exact: true }).click();
      await panel.getByRole('button', { name: 'Add member' }).click();
      await expect.poll(() => panel.getByRole('heading', { name: 'Add member' }).isVisible()).toBe(true);
    };
    const nameField = panel.getByRole('textbox', { name: 'Name' });
    const phoneField = panel.getByRole('textbox', { name: 'Phone number' });

    await openAddMember(first, 'First');
    await nameField.fill('Cy');
    await phoneField.fill(cy.phone);
    await expect.poll(async () => (await current(page, 'formDrafts'))[`addMembers:${first}`]?.members[0]?.name).toBe('Cy');

    await openAddMember(other, 'Other');
    expect([await nameField.inputValue(), await phoneField.inputValue()]).toEqual(['', '']);

    await openAddMember(first, 'First');
    await expect.poll(() => nameField.inputValue()).toBe('Cy');
    expect(await phoneField.inputValue()).toBe(cy.phone);

    await panel.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => panel.getByText('3 members').isVisible()).toBe(true);
    await expect.poll(async () => Object.keys(await current(page, 'formDrafts'))).toEqual([]);
  });

  it('keeps an add-member draft typed just before a reload (issue 23)', async () => {
    const [bo, cy] = [await signUp(s.url, 'Bo'), await signUp(s.url, 'Cy')];
    const me = await signedInPerson(chromium, s, 'Quick', { context: wide });
    const { page } = me;
    const group = await groupOf(me.user.token, 'Quick group', bo, 'Bo');
    const panel = page.locator('aside.right-panel');
    const openAddMember = async () => {
      await page.goto(`${s.url}/inbox/${group}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Quick group', level: 2 }).count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Chat settings', exact: true }).click();
      await panel.getByRole('button', { name: 'Add member' }).click();
      await expect.poll(() => panel.getByRole('heading', { name: 'Add member' }).isVisible()).toBe(true);
    };
    const nameField = panel.getByRole('textbox', { name: 'Name' });
    const phoneField = panel.getByRole('textbox', { name: 'Phone number' });
    await openAddMember();
    await nameField.fill('Cy');
    await phoneField.fill(cy.phone);
    // At once, well within the form's save delay.
    await page.reload();
    await openAddMember();
    await expect.poll(() => nameField.inputValue()).toBe('Cy');
    expect(await phoneField.inputValue()).toBe(cy.phone);
  });
});
