import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { insertCommunity, insertConversation } from '../support/fixtures';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, useChromium } from '../support/tabs';
import {
  createGroup,
  dialog,
  listedIds,
  memberRows,
  openChat,
  openGroup,
  openSettings,
  panel,
  panelViolations,
  type Person,
  person,
  settingsButton,
} from './chat-settings-support';
import { png } from './chat-view-support';

/**
 * The right panel (spec §2 chat settings and user profile) against the real server: the settings button,
 * renaming, the picture, Escape and focus, accessibility and the Swedish texts.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const newPerson = (nickname: string, options: Parameters<typeof person>[3] = {}): Promise<Person> =>
  person(chromium, s, nickname, options);

describe('chat settings panel', () => {
  it('has a settings button in one-to-one chats and groups, and none in channels or feeds', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const chatId = await createChat(ann.page, 'Bo', bo.user.phone);
    await openChat(s, ann, chatId, 'Bo');
    // A one-to-one chat's settings are the other person's profile.
    await openSettings(ann.page);
    const profile = panel(ann.page);
    await expect.poll(() => profile.getByRole('heading', { name: 'User profile' }).isVisible()).toBe(true);
    await expect.poll(() => profile.getByRole('heading', { name: 'Bo', exact: true }).isVisible()).toBe(true);
    await expect.poll(() => profile.getByText(bo.user.phone).isVisible()).toBe(true);
    // Nobody administers a one-to-one chat: no badge, no promote or remove, no exit.
    expect(await profile.getByRole('button').count()).toBe(1);
    await profile.getByRole('button', { name: 'Close panel' }).click();
    await expect.poll(() => panel(ann.page).count()).toBe(0);

    await openGroup(s, ann, 'Settings club', [bo]);
    await openSettings(ann.page);
    await expect.poll(() => panel(ann.page).getByRole('heading', { name: 'Chat settings' }).isVisible()).toBe(true);
    // The panel's title shows while the conversation still loads: its body comes with the engine's answer.
    await expect.poll(() => panel(ann.page).getByText('2 members').isVisible()).toBe(true);
    await expect.poll(() => memberRows(ann.page)).toEqual([`Ann (you), ${ann.user.phone}, Admin`, `Bo, ${bo.user.phone}`]);

    const budi = await newPerson('Budi', { country: '62' });
    const db = s.server.ctx.db;
    const community = await insertCommunity(db, { name: 'Kopi', ownerId: budi.user.id });
    const channel = await insertConversation(db, {
      members: [budi.user.id],
      admins: [budi.user.id],
      name: 'Kopi talk',
      isGroup: true,
      groupType: 'channel',
      communityId: community.id,
    });
    const feed = await insertConversation(db, {
      members: [budi.user.id],
      admins: [budi.user.id],
      name: 'Kopi news',
      isGroup: true,
      groupType: 'feed',
      communityId: community.id,
      announcements: true,
    });
    const ownGroup = await createGroup(s, budi, 'Budi group', [ann]);
    await openChat(s, budi, ownGroup, 'Budi group');
    await expect.poll(() => settingsButton(budi.page).count()).toBe(1);
    for (const [id, name] of [
      [channel.id, 'Kopi talk'],
      [feed.id, 'Kopi news'],
    ] as const) {
      await openChat(s, budi, id, name);
      expect(await settingsButton(budi.page).count()).toBe(0);
    }
  });

  it('lets an admin rename the group inline; the other member sees it live with a system message', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    await openGroup(s, ann, 'Old name', [bo], { openFor: [ann, bo] });
    await openSettings(ann.page);
    const p = panel(ann.page);

    // An unchanged name (spaces aside) just closes the editor, and focus goes back to the pencil.
    await p.getByRole('button', { name: 'Rename group' }).click();
    const input = p.getByRole('textbox', { name: 'Group name' });
    expect(await input.inputValue()).toBe('Old name');
    await input.fill('  Old name ');
    await input.press('Enter');
    await expect.poll(() => input.count()).toBe(0);
    // An effect moves the focus after the editor is gone.
    await expect.poll(() => ann.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename group');

    // Escape cancels the editor without closing the panel.
    await p.getByRole('button', { name: 'Rename group' }).click();
    await input.fill('Not this one');
    await input.press('Escape');
    await expect.poll(() => input.count()).toBe(0);
    expect(await p.getByRole('heading', { name: 'Old name' }).isVisible()).toBe(true);

    // Errors show inline: empty, too long (here), and the server's own refusal.
    await p.getByRole('button', { name: 'Rename group' }).click();
    await input.fill('   ');
    await p.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('Name cannot be empty');
    await input.fill('x'.repeat(51));
    await p.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('Name must be at most 50 characters');
    await input.fill('Q');
    await p.getByRole('button', { name: 'Save name' }).click();
    await expect.poll(() => p.getByRole('alert').textContent()).toMatch(/2/);
    expect(await input.isVisible()).toBe(true);

    await input.fill('  Reading circle  ');
    await input.press('Enter');
    await expect.poll(() => p.getByRole('heading', { name: 'Reading circle', exact: true }).isVisible()).toBe(true);
    // Everybody follows live: the other member's header and a system message in their chat.
    await expect
      .poll(() => bo.page.getByRole('heading', { name: 'Reading circle', exact: true, level: 2 }).count())
      .toBeGreaterThan(0);
    await expect.poll(() => bo.page.getByRole('log').getByText(/Reading circle/).count()).toBe(1);
    await expect.poll(() => ann.page.locator('.chat-header').getByRole('heading').textContent()).toBe('Reading circle');
  });

  it('shows a non-admin no rename, picture or delete, but add member and exit', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    await openGroup(s, ann, 'Admins only', [bo], { openFor: [bo] });
    await openSettings(bo.page);
    const p = panel(bo.page);
    await expect.poll(() => p.getByRole('button', { name: 'Exit group' }).isVisible()).toBe(true);
    expect(await p.getByRole('button', { name: 'Add member' }).isVisible()).toBe(true);
    for (const name of ['Rename group', 'Change group picture', 'Delete group']) {
      expect(await p.getByRole('button', { name }).count()).toBe(0);
    }
    // Another member's profile offers no promote or remove to a non-admin.
    await p.getByRole('button', { name: /^Ann/ }).click();
    await expect.poll(() => p.getByRole('heading', { name: 'User profile' }).isVisible()).toBe(true);
    expect(await p.getByText('Admin', { exact: true }).isVisible()).toBe(true);
    expect(await p.getByRole('button', { name: /admin|Remove/ }).count()).toBe(0);
    await p.getByRole('button', { name: 'Back to chat settings' }).click();
    await expect.poll(() => p.getByRole('heading', { name: 'Chat settings' }).isVisible()).toBe(true);
  });

  it('changes the group picture, refusing a file that is not an image or is over 3 MB', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const groupId = await openGroup(s, ann, 'Pictures', [bo]);
    await openSettings(ann.page);
    const p = panel(ann.page);
    const file = p.locator('input[type="file"]');
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('Please select an image');
    await file.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(3_145_729, 1) });
    await expect.poll(() => p.getByRole('alert').textContent()).toBe('The image is too big. Please select an image under 3 MB.');
    expect(await p.locator('img').count()).toBe(0);

    await file.setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: png(64, 64) });
    await expect.poll(() => p.locator('.avatar-picker img').count()).toBe(1);
    expect(await p.getByRole('alert').count()).toBe(0);
    // The header and the other member follow through conversation_edit.
    await expect.poll(() => ann.page.locator('.chat-header img').count()).toBe(1);
    await openChat(s, bo, groupId, 'Pictures');
    await expect.poll(() => bo.page.locator('.chat-header img').count()).toBe(1);
  });

  it('closes dialogs and the panel with Escape or a click outside, and gives focus back', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    const groupId = await openGroup(s, ann, 'Escape room', [bo]);
    const page = ann.page;
    await openSettings(page);
    // Focus moved into the panel (by an effect, after the panel shows).
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.right-panel') != null)).toBe(true);

    await panel(page).getByRole('button', { name: 'Exit group' }).click();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    expect(await dialog(page).getAttribute('aria-modal')).toBe('true');
    expect(await dialog(page).getByRole('heading').textContent()).toBe('Exit group?');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog(page).count()).toBe(0);
    // Only the dialog closed; focus is back on the button that opened it.
    expect(await panel(page).isVisible()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Exit group');

    await panel(page).getByRole('button', { name: 'Delete group' }).click();
    await expect.poll(() => dialog(page).isVisible()).toBe(true);
    await page.mouse.click(5, 5);
    await expect.poll(() => dialog(page).count()).toBe(0);
    expect(await panel(page).isVisible()).toBe(true);

    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Chat settings');
    // The group is still there: nothing was confirmed.
    expect(await listedIds(page)).toContain(groupId);
  });

  it('has no serious accessibility violations in the panel, its profile and its dialogs', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    await openGroup(s, ann, 'Accessible', [bo], { broadcast: true });
    await openSettings(ann.page);
    const p = panel(ann.page);
    // A broadcast group calls its admins broadcasters.
    await expect.poll(() => memberRows(ann.page)).toEqual([`Ann (you), ${ann.user.phone}, Broadcaster`, `Bo, ${bo.user.phone}`]);
    // The whole screen with the panel open, then the panel's other states on their own.
    expect(await seriousViolations(ann.page)).toEqual([]);
    await p.getByRole('button', { name: 'Rename group' }).click();
    await p.getByRole('textbox', { name: 'Group name' }).waitFor();
    expect(await panelViolations(ann.page)).toEqual([]);
    await p.getByRole('button', { name: 'Cancel' }).click();
    await p.getByRole('button', { name: /^Bo/ }).click();
    await expect.poll(() => p.getByRole('button', { name: 'Make broadcaster' }).isVisible()).toBe(true);
    expect(await panelViolations(ann.page)).toEqual([]);
    await p.getByRole('button', { name: 'Make broadcaster' }).click();
    await expect.poll(() => dialog(ann.page).isVisible()).toBe(true);
    expect(await panelViolations(ann.page)).toEqual([]);
    await ann.page.keyboard.press('Escape');
    await p.getByRole('button', { name: 'Back to chat settings' }).click();
    await p.getByRole('button', { name: 'Add member' }).click();
    await expect.poll(() => p.getByRole('textbox', { name: 'Phone number' }).isVisible()).toBe(true);
    expect(await panelViolations(ann.page)).toEqual([]);
  });

  it('shows the panel in Swedish', async () => {
    const ann = await newPerson('Ann', { locale: 'sv-SE' });
    const bo = await newPerson('Bo');
    await ann.page.evaluate(() => window.engine.setLanguage('sv'));
    await openGroup(s, ann, 'Bokcirkel', [bo]);
    await settingsButton(ann.page, 'Chattinställningar').click();
    const p = panel(ann.page);
    await expect.poll(() => p.getByRole('heading', { name: 'Chattinställningar' }).isVisible()).toBe(true);
    // The title shows while the conversation still loads: the body comes with the engine's answer.
    await expect.poll(() => p.getByText('2 medlemmar').isVisible()).toBe(true);
    for (const name of ['Byt gruppbild', 'Byt namn på gruppen', 'Lägg till medlem', 'Lämna gruppen', 'Radera gruppen', 'Stäng panelen']) {
      expect(await p.getByRole('button', { name }).isVisible(), name).toBe(true);
    }
    await expect.poll(() => memberRows(ann.page)).toEqual([`Ann (du), ${ann.user.phone}, Admin`, `Bo, ${bo.user.phone}`]);
    await p.getByRole('button', { name: /^Bo/ }).click();
    await expect.poll(() => p.getByRole('heading', { name: 'Användarprofil' }).isVisible()).toBe(true);
    await expect.poll(() => p.getByRole('button', { name: 'Gör till admin' }).isVisible()).toBe(true);
    await p.getByRole('button', { name: 'Ta bort ur gruppen' }).click();
    await expect.poll(() => dialog(ann.page).getByRole('heading').textContent()).toBe('Ta bort Bo?');
    expect(await dialog(ann.page).getByRole('button', { name: 'Avbryt' }).isVisible()).toBe(true);
  });

  it('covers the chat on a narrow screen', async () => {
    const ann = await newPerson('Ann', { width: 420 });
    const bo = await newPerson('Bo');
    await openGroup(s, ann, 'Narrow', [bo]);
    await openSettings(ann.page);
    await expect.poll(() => panel(ann.page).boundingBox()).toMatchObject({ x: 0, y: 0, width: 420, height: 850 });
    await panel(ann.page).getByRole('button', { name: 'Close panel' }).click();
    await expect.poll(() => ann.page.getByRole('log').isVisible()).toBe(true);
  });

  it('sends a user whose country has no communities from /explore to /inbox', async () => {
    const ann = await newPerson('Ann');
    await ann.page.goto(`${s.url}/explore`);
    await ann.page.waitForURL(/\/inbox$/);
    const budi = await newPerson('Budi', { country: '62' });
    await budi.page.goto(`${s.url}/explore`);
    await expect.poll(() => budi.page.getByRole('searchbox', { name: 'Search communities' }).isVisible()).toBe(true);
    expect(new URL(budi.page.url()).pathname).toBe('/explore');
  });

  it('offers a way back to the chats list from a chat that does not exist, and drops the panel on another chat', async () => {
    const ann = await newPerson('Ann');
    const bo = await newPerson('Bo');
    await ann.page.goto(`${s.url}/inbox/999999`);
    const back = ann.page.getByRole('link', { name: 'Back to chats' });
    // Whether the chat is refused (an error with Retry) or simply unknown, the way back is there.
    await expect.poll(() => ann.page.locator('[data-chat-view="error"], [data-chat-view="not-found"]').count()).toBe(1);
    await back.click();
    await ann.page.waitForURL(/\/inbox$/);

    const first = await createGroup(s, ann, 'First group', [bo]);
    const second = await createGroup(s, ann, 'Second group', [bo]);
    await openChat(s, ann, first, 'First group');
    await openSettings(ann.page);
    await ann.page.locator(`.main-screen__left [data-conversation-id="${second}"]`).click();
    await expect.poll(() => ann.page.locator('.chat-header').getByRole('heading').textContent()).toBe('Second group');
    await expect.poll(() => panel(ann.page).count()).toBe(0);
    await ann.page.goBack();
    await expect.poll(() => ann.page.locator('.chat-header').getByRole('heading').textContent()).toBe('First group');
    expect(await panel(ann.page).count()).toBe(0);
  });
});
