import { describe, expect, it } from 'vitest';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, current, sendText, useChromium } from '../support/tabs';
import {
  createGroup,
  dialog,
  listedIds,
  memberRows,
  openChat,
  openGroup,
  openSettings,
  panel,
  type Person,
  person,
} from './chat-settings-support';

/**
 * Members in the right panel against the real server, two or three people at once: adding by phone,
 * promoting and demoting, removing, exiting and deleting (spec §2, §4, §6, §8).
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const newPerson = (nickname: string): Promise<Person> => person(chromium, s, nickname);

const leftRow = (p: Person, id: number) => p.page.locator(`.main-screen__left [data-conversation-id="${id}"]`);

describe('chat settings members', () => {
  it('adds a member by phone number, checked with the user’s country patterns', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const cy = await signUp(s.url, 'Cy');
    const groupId = await createGroup(s, ann, 'Growing', [bo]);
    // Any member may add people: Bo is not an admin.
    await openChat(s, bo, groupId, 'Growing');
    await openChat(s, ann, groupId, 'Growing');
    await openSettings(bo.page);
    const p = panel(bo.page);
    await p.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => p.getByRole('heading', { name: 'Add member' }).isVisible()).toBe(true);
    await p.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => p.getByText('Name is required').isVisible()).toBe(true);
    expect(await p.getByText('Phone number is required').isVisible()).toBe(true);
    await p.getByRole('textbox', { name: 'Name' }).fill('Cy');
    await p.getByRole('textbox', { name: 'Phone number' }).fill('12345');
    await p.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => p.getByText('Invalid phone number').isVisible()).toBe(true);
    expect(await p.getByRole('textbox', { name: 'Phone number' }).getAttribute('aria-invalid')).toBe('true');

    await p.getByRole('textbox', { name: 'Phone number' }).fill(cy.phone);
    await p.getByRole('button', { name: 'Add member' }).click();
    // Back on the settings, the newcomer listed through the add_user event, for both members.
    await expect.poll(() => p.getByText('3 members').isVisible()).toBe(true);
    await expect.poll(async () => (await memberRows(bo.page)).some((r) => r.startsWith('Cy'))).toBe(true);
    await openSettings(ann.page);
    await expect.poll(async () => (await memberRows(ann.page)).some((r) => r.startsWith(`Cy, ${cy.phone}`))).toBe(true);

    // Adding someone who is already in changes nothing and says so inline, or simply returns.
    await panel(ann.page).getByRole('button', { name: 'Add member' }).click();
    await panel(ann.page).getByRole('textbox', { name: 'Name' }).fill('Ann herself');
    await panel(ann.page).getByRole('textbox', { name: 'Phone number' }).fill(ann.user.phone);
    await panel(ann.page).getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => panel(ann.page).getByRole('alert').textContent()).toBe('Add at least one member other than yourself');
  });

  it('promotes and demotes a member after a confirmation; both see the badge change', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    await openGroup(s, ann, 'Ranks', [bo], { openFor: [ann, bo] });
    await openSettings(bo.page);
    await openSettings(ann.page);
    const p = panel(ann.page);
    await p.getByRole('button', { name: /^Bo/ }).click();
    await expect.poll(() => p.getByRole('heading', { name: 'User profile' }).isVisible()).toBe(true);
    expect(await p.getByText(bo.user.phone).isVisible()).toBe(true);
    expect(await p.locator('.cs-badge').count()).toBe(0);

    await p.getByRole('button', { name: 'Make admin' }).click();
    // The dialog speaks the button's words (issue 10).
    await expect.poll(() => dialog(ann.page).getByRole('heading').textContent()).toBe('Make Bo an admin?');
    await dialog(ann.page).getByRole('button', { name: 'Make admin' }).click();
    await expect.poll(() => dialog(ann.page).count()).toBe(0);
    await expect.poll(() => p.locator('.cs-badge').textContent()).toBe('Admin');
    expect(await p.getByRole('button', { name: 'Remove as admin' }).isVisible()).toBe(true);
    // Bo now sees himself as admin, with the admin controls.
    await expect
      .poll(() => memberRows(bo.page))
      .toEqual([`Bo (you), ${bo.user.phone}, Admin`, `Ann, ${ann.user.phone}, Admin`]);
    await expect.poll(() => panel(bo.page).getByRole('button', { name: 'Delete group' }).isVisible()).toBe(true);

    await p.getByRole('button', { name: 'Remove as admin' }).click();
    await expect.poll(() => dialog(ann.page).getByRole('heading').textContent()).toBe('Remove Bo as admin?');
    await dialog(ann.page).getByRole('button', { name: 'Remove as admin' }).click();
    await expect.poll(() => p.locator('.cs-badge').count()).toBe(0);
    // A member who is no admin sees no other member's number (docs/server.md).
    await expect.poll(() => memberRows(bo.page)).toEqual(['Ann, Admin', `Bo (you), ${bo.user.phone}`]);
    expect(await panel(bo.page).getByRole('button', { name: 'Delete group' }).count()).toBe(0);

    // Promoted again, Bo demotes Ann: her profile of Bo loses its admin controls live.
    await p.getByRole('button', { name: 'Make admin' }).click();
    await dialog(ann.page).getByRole('button', { name: 'Make admin' }).click();
    await expect.poll(() => panel(bo.page).getByRole('button', { name: 'Delete group' }).isVisible()).toBe(true);
    await panel(bo.page).getByRole('button', { name: /^Ann/ }).click();
    await panel(bo.page).getByRole('button', { name: 'Remove as admin' }).click();
    await dialog(bo.page).getByRole('button', { name: 'Remove as admin' }).click();
    await expect.poll(() => panel(bo.page).locator('.cs-badge').count()).toBe(0);
    await expect.poll(() => p.getByRole('button', { name: 'Make admin' }).count()).toBe(0);
  });

  it('says broadcaster in a broadcast group, from the badge to the dialog and its button', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    await openGroup(s, ann, 'Newsletter', [bo], { broadcast: true });
    await openSettings(ann.page);
    const p = panel(ann.page);
    await expect.poll(() => memberRows(ann.page)).toEqual([`Ann (you), ${ann.user.phone}, Broadcaster`, `Bo, ${bo.user.phone}`]);
    await p.getByRole('button', { name: /^Bo/ }).click();
    await p.getByRole('button', { name: 'Make broadcaster' }).click();
    const d = dialog(ann.page);
    await expect.poll(() => d.getByRole('heading').textContent()).toBe('Make Bo a broadcaster?');
    expect(await d.textContent()).toMatch(/Bo will be able to send to everyone in the group/);
    expect(await d.getByRole('button').allTextContents()).toEqual(['Cancel', 'Make broadcaster']);
    expect(await d.textContent()).not.toMatch(/promote|admin/i);
    await d.getByRole('button', { name: 'Make broadcaster' }).click();
    await expect.poll(() => d.count()).toBe(0);
    await expect.poll(() => p.locator('.cs-badge').textContent()).toBe('Broadcaster');

    await p.getByRole('button', { name: 'Remove as broadcaster' }).click();
    await expect.poll(() => d.getByRole('heading').textContent()).toBe('Remove Bo as broadcaster?');
    expect(await d.getByRole('button').allTextContents()).toEqual(['Cancel', 'Remove as broadcaster']);
    expect(await d.textContent()).not.toMatch(/demote|admin/i);
    await d.getByRole('button', { name: 'Remove as broadcaster' }).click();
    await expect.poll(() => p.locator('.cs-badge').count()).toBe(0);
    expect(await p.getByRole('button', { name: 'Make broadcaster' }).isVisible()).toBe(true);
  });

  it('removes a member: the list loses them and their chat closes', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const cy = await newPerson('Cy');
    const groupId = await openGroup(s, ann, 'Shrinking', [bo, cy], { openFor: [ann, cy] });
    await openSettings(ann.page);
    const p = panel(ann.page);
    await p.getByRole('button', { name: /^Cy/ }).click();
    await p.getByRole('button', { name: 'Remove from group' }).click();
    await expect.poll(() => dialog(ann.page).getByRole('heading').textContent()).toBe('Remove Cy?');
    await dialog(ann.page).getByRole('button', { name: 'Remove', exact: true }).click();
    // Back on the settings without Cy.
    await expect.poll(() => p.getByRole('heading', { name: 'Chat settings' }).isVisible()).toBe(true);
    await expect.poll(() => memberRows(ann.page)).toEqual([`Ann (you), ${ann.user.phone}, Admin`, `Bo, ${bo.user.phone}`]);
    expect(await p.getByText('2 members').isVisible()).toBe(true);
    // Cy's open chat closes and leaves the list.
    await cy.page.waitForURL(/\/inbox$/);
    await expect.poll(() => listedIds(cy.page)).not.toContain(groupId);
    // An admin has no remove button for themselves.
    await p.getByRole('button', { name: /^Ann/ }).click();
    await expect.poll(() => p.getByRole('heading', { name: 'User profile' }).isVisible()).toBe(true);
    expect(await p.getByRole('button', { name: 'Remove from group' }).count()).toBe(0);
  });

  it('exits a group: back to /inbox and the chat leaves the list; the last admin is refused inline', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const groupId = await openGroup(s, ann, 'Leaving', [bo]);
    // The only admin may not leave a group with other members: the server's message shows in the dialog.
    await openSettings(ann.page);
    await panel(ann.page).getByRole('button', { name: 'Exit group' }).click();
    await dialog(ann.page).getByRole('button', { name: 'Exit', exact: true }).click();
    await expect.poll(() => dialog(ann.page).getByRole('alert').textContent()).toMatch(/only admin/);
    await ann.page.keyboard.press('Escape');

    await openChat(s, bo, groupId, 'Leaving');
    await expect.poll(() => leftRow(bo, groupId).count()).toBe(1);
    // What Bo can find of the group goes with him (the search's drop, issue 24), and stays gone after a reload.
    await sendText(bo.page, groupId, 'lighthouse keeper plans');
    const found = async () => (await current(bo.page, 'searchMessages', 'lighthouse keep')).hits.map((h) => h.conversationId);
    await expect.poll(found).toEqual([groupId]);
    await openSettings(bo.page);
    await panel(bo.page).getByRole('button', { name: 'Exit group' }).click();
    await dialog(bo.page).getByRole('button', { name: 'Exit', exact: true }).click();
    await bo.page.waitForURL(/\/inbox$/);
    await expect.poll(() => panel(bo.page).count()).toBe(0);
    await expect.poll(() => leftRow(bo, groupId).count()).toBe(0);
    expect(await listedIds(bo.page)).not.toContain(groupId);
    await expect.poll(found).toEqual([]);
    await bo.page.reload();
    await expect.poll(found).toEqual([]);
    // Ann's panel follows: one member left.
    await expect.poll(() => memberRows(ann.page)).toEqual([`Ann (you), ${ann.user.phone}, Admin`]);
  });

  it('deletes a group (admin): both people go back to /inbox and lose the chat', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const groupId = await openGroup(s, ann, 'Doomed', [bo], { openFor: [ann, bo] });
    await openSettings(ann.page);
    await panel(ann.page).getByRole('button', { name: 'Delete group' }).click();
    await expect.poll(() => dialog(ann.page).getByRole('heading').textContent()).toBe('Delete group?');
    await dialog(ann.page).getByRole('button', { name: 'Delete', exact: true }).click();
    for (const p of [ann, bo]) {
      await p.page.waitForURL(/\/inbox$/);
      await expect.poll(() => leftRow(p, groupId).count()).toBe(0);
      await expect.poll(() => listedIds(p.page)).not.toContain(groupId);
    }
    await expect.poll(() => panel(ann.page).count()).toBe(0);
  });
});
