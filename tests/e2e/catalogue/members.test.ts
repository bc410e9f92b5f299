import type { Locator, Page } from 'playwright';
import { expect } from 'vitest';
import type { CreatedConversationAnswer } from '../../../src/protocol/api';
import { call, nextPhone, type TestUser } from '../../support/server';
import { dialog, panel } from '../chat-settings-support';
import { png } from '../chat-view-support';
import { type CatalogueEntry, type SignedIn, type Stage, walkCatalogue } from './stage';

/**
 * Spec §8 "Conversations" (settings and mute), "Members", "Files" (the group picture), the inline settings
 * errors of §8's handling (name or picture refused, image too big, not an image, unable to leave or delete)
 * and the "Network error occurred while …" texts of members, in the right panel of a group.
 */

interface Group {
  admin: SignedIn;
  bo: TestUser;
  groupId: number;
}

/**
 * One group per language, made once: its admin Ann signed in (kept for the block) and Bo, a member over REST
 * only. Every call of the entries is refused or dropped by the proxy, so the group stays as it was.
 */
function group(s: Stage): Promise<Group> {
  return s.once('group', async () => {
    const admin = await s.person('Ann', '/inbox', { keep: true });
    const bo = await s.user('Bo');
    const form = {
      name: 'Catalogue club',
      force_group: '1',
      'member[0][name]': 'Bo',
      'member[0][type]': 'phone_nr',
      'member[0][value]': bo.phone,
    };
    const answer = await call<CreatedConversationAnswer>(s.server.url, 'POST', '/v2/conversations', {
      token: admin.user.token,
      form,
    });
    return { admin, bo, groupId: answer.data.conversation.id };
  });
}

/** Ann's tab on the group with its settings open (loaded again, so nothing an earlier entry left stays). */
async function settings(s: Stage): Promise<{ page: Page; g: Group; panel: Locator }> {
  const g = await group(s);
  const { page } = g.admin;
  await page.goto(`${s.url}/inbox/${g.groupId}`);
  await page.getByRole('button', { name: s.t('chat.header.settings'), exact: true }).click();
  const p = panel(page);
  await expect.poll(() => p.getByRole('button', { name: s.t('chatSettings.exit.button') }).isVisible()).toBe(true);
  return { page, g, panel: p };
}

/** Bo's profile from the members list of the open settings. */
async function boProfile(s: Stage, p: Locator): Promise<void> {
  await p.getByRole('button', { name: /^Bo/ }).click();
  await expect.poll(() => p.getByRole('heading', { name: s.t('chatSettings.profile.title') }).isVisible()).toBe(true);
}

/** Confirms the dialog that asks first; the refusal shows inside it, the dialog staying open. */
async function confirm(s: Stage, page: Page, confirmKey: string): Promise<Locator> {
  const d = dialog(page);
  await d.getByRole('button', { name: s.t(confirmKey), exact: true }).click();
  return d.getByRole('alert');
}

async function rename(s: Stage): Promise<Locator> {
  const { panel: p } = await settings(s);
  s.proxy.fail('PUT', /^\/v2\/conversations\/\d+$/);
  await p.getByRole('button', { name: s.t('chatSettings.name.edit') }).click();
  const field = p.getByRole('textbox', { name: s.t('chatSettings.name.label') });
  await field.fill('Renamed club');
  await p.getByRole('button', { name: s.t('chatSettings.name.save') }).click();
  const alert = p.getByRole('alert');
  await alert.waitFor();
  // The editor stays open with what was typed.
  expect(await field.inputValue()).toBe('Renamed club');
  return alert;
}

/** Picks a file for the group picture (the hidden input behind the picture's button). */
async function pickPicture(s: Stage, file: { name: string; mimeType: string; buffer: Buffer }): Promise<Locator> {
  const { panel: p } = await settings(s);
  await p.locator('input[type="file"]').setInputFiles(file);
  return p.locator('.avatar-picker').getByRole('alert');
}

const PICTURE = { name: 'face.png', mimeType: 'image/png', buffer: png(32, 32) };

async function mute(s: Stage): Promise<Locator> {
  const { panel: p } = await settings(s);
  s.proxy.fail('PUT', /^\/v2\/conversations\/\d+\/mute$/);
  // click, not check: the refusal may put the old choice back before Playwright looks.
  await p.getByRole('radio', { name: s.t('chatSettings.mute.8h') }).click();
  const alert = p.locator('fieldset').getByRole('alert');
  await alert.waitFor();
  // The old choice is back.
  expect(await p.getByRole('radio', { name: s.t('chatSettings.mute.unmute') }).isChecked()).toBe(true);
  return alert;
}

async function addMember(s: Stage, refuse: 'refuse' | 'drop'): Promise<Locator> {
  const { panel: p } = await settings(s);
  s.proxy.fail('POST', /^\/v2\/conversations\/\d+\/users$/, refuse === 'drop' ? { kind: 'drop' } : { kind: 'refuse', status: 500 });
  await p.getByRole('button', { name: s.t('chatSettings.addMember') }).click();
  await expect.poll(() => p.getByRole('heading', { name: s.t('chatSettings.add.title') }).isVisible()).toBe(true);
  const name = p.getByRole('textbox', { name: s.t('chatSettings.add.name') });
  const phone = p.getByRole('textbox', { name: s.t('chatSettings.add.phone') });
  const number = nextPhone();
  await name.fill('Cy');
  await phone.fill(number);
  await p.getByRole('button', { name: s.t('chatSettings.add.submit') }).click();
  const alert = p.getByRole('alert');
  await alert.waitFor();
  // Shown in the form, which keeps what was typed (docs/ui.md "Errors").
  expect(await name.inputValue()).toBe('Cy');
  expect(await phone.inputValue()).toBe(number);
  return alert;
}

/** A member's profile: promote (setAdmin) or remove, confirmed, the call refused or dropped. */
async function manage(s: Stage, action: 'promote' | 'remove', refuse: 'refuse' | 'drop'): Promise<Locator> {
  const { page, g, panel: p } = await settings(s);
  const fault = refuse === 'drop' ? ({ kind: 'drop' } as const) : ({ kind: 'refuse', status: 500 } as const);
  const path = new RegExp(`^/v1/conversations/${g.groupId}/users/${g.bo.id}$`);
  s.proxy.fail(action === 'promote' ? 'PUT' : 'DELETE', path, fault);
  await boProfile(s, p);
  await p
    .getByRole('button', { name: s.t(action === 'promote' ? 'chatSettings.profile.promote.admin.button' : 'chatSettings.profile.remove.button') })
    .click();
  return confirm(s, page, action === 'promote' ? 'chatSettings.profile.promote.admin.confirm' : 'chatSettings.profile.remove.confirm');
}

/** Exit or delete the group, confirmed, the call refused or dropped. */
async function leaveOrDelete(s: Stage, action: 'exit' | 'delete', refuse: 'refuse' | 'drop'): Promise<Locator> {
  const { page, g, panel: p } = await settings(s);
  const fault = refuse === 'drop' ? ({ kind: 'drop' } as const) : ({ kind: 'refuse', status: 500 } as const);
  // Leaving is removing oneself (spec §7): the same call on the user's own id.
  const path = new RegExp(`^/v1/conversations/${g.groupId}${action === 'exit' ? `/users/${g.admin.user.id}` : ''}$`);
  s.proxy.fail('DELETE', path, fault);
  await p.getByRole('button', { name: s.t(`chatSettings.${action}.button`) }).click();
  return confirm(s, page, `chatSettings.${action}.confirm`);
}

const entries: CatalogueEntry[] = [
  // Conversations and files: the name and the picture, inline under what was changed.
  { spec: 'Failed to update conversation settings', where: 'the group name', key: 'failures.updateSettings', provoke: rename },
  {
    spec: 'Failed to upload image',
    where: 'the group picture',
    key: 'failures.uploadImage',
    provoke(s) {
      s.proxy.fail('POST', /^\/v1\/images$/);
      return pickPicture(s, PICTURE);
    },
  },
  {
    // The picture uploaded, then setting it as the group's refused: the same text as a refused rename.
    spec: 'Failed to update conversation settings',
    where: 'the group picture',
    key: 'failures.updateSettings',
    provoke(s) {
      s.proxy.fail('PUT', /^\/v2\/conversations\/\d+$/);
      return pickPicture(s, PICTURE);
    },
  },
  // §8 handling: "image too big, please select image", checked before anything is sent.
  {
    spec: 'Please select an image',
    key: 'failures.avatar.notImage',
    provoke: (s) => pickPicture(s, { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') }),
  },
  {
    spec: 'image is too big',
    key: 'failures.avatar.tooBig',
    provoke: (s) => pickPicture(s, { name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(3_145_729, 1) }),
  },
  { spec: 'Failed to update mute settings', key: 'failures.updateMute', provoke: mute },
  // Members: the add-member form, a member's profile, exit and delete (the last three in their confirmation).
  { spec: 'Failed to add users to chat', key: 'failures.addUsers', provoke: (s) => addMember(s, 'refuse') },
  { spec: 'Failed to remove user from chat', key: 'failures.removeUser', provoke: (s) => manage(s, 'remove', 'refuse') },
  { spec: 'Failed to update user admin status', key: 'failures.updateAdmin', provoke: (s) => manage(s, 'promote', 'refuse') },
  { spec: 'Failed to delete group', key: 'failures.deleteGroup', provoke: (s) => leaveOrDelete(s, 'delete', 'refuse') },
  { spec: 'Failed to leave group', key: 'failures.leaveGroup', provoke: (s) => leaveOrDelete(s, 'exit', 'refuse') },
  // "Network error occurred while …": no answer at all.
  { spec: 'Network error occurred while adding a member', key: 'failures.addMemberNetwork', provoke: (s) => addMember(s, 'drop') },
  {
    spec: 'Network error occurred while removing a member',
    key: 'failures.removeMemberNetwork',
    provoke: (s) => manage(s, 'remove', 'drop'),
  },
  {
    spec: 'Network error occurred while promoting or demoting a member',
    key: 'failures.adminNetwork',
    provoke: (s) => manage(s, 'promote', 'drop'),
  },
  {
    spec: 'Network error occurred while deleting the group',
    key: 'failures.deleteGroupNetwork',
    provoke: (s) => leaveOrDelete(s, 'delete', 'drop'),
  },
  {
    spec: 'Network error occurred while leaving the group',
    key: 'failures.leaveGroupNetwork',
    provoke: (s) => leaveOrDelete(s, 'exit', 'drop'),
  },
  {
    // The engine has `setDeliverySettings` for scripts, but the app offers no delivery modes (muting is what
    // a messenger offers, with its own text): the console call's rejection carries the text.
    spec: 'Failed to update delivery settings',
    key: 'failures.updateDelivery',
    async provoke(s) {
      const g = await group(s);
      s.proxy.fail('POST', /^\/v2\/conversations\/\d+\/delivery_settings$/);
      const rejected = await g.admin.page.evaluate(
        (id) =>
          window.engine.setDeliverySettings(id, 'silent').then(
            () => 'accepted',
            (e: { message?: string }) => e.message ?? String(e),
          ),
        g.groupId,
      );
      return { rejected };
    },
  },
];

walkCatalogue('chat settings and members', entries);
