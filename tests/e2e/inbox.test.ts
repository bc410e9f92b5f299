import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { insertCommunity, insertConversation } from '../support/fixtures';
import { call, nextPhone, signUp, useTestServer, TEST_PIN, type TestUser } from '../support/server';
import { CLIENT_DIR, createChat, current, openTab, signInThrough, useChromium, waitFor } from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** The names of the rendered rows, top to bottom. */
const rowNames = (page: Page) =>
  page.$$eval('.inbox-row', (rows) =>
    rows
      .map((row) => ({ top: row.getBoundingClientRect().top, name: row.querySelector('.inbox-row__name')?.textContent ?? '' }))
      .sort((a, b) => a.top - b.top)
      .map((r) => r.name),
  );

const friendSays = (friend: TestUser, conversationId: number, text: string) =>
  call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token: friend.token,
    json: { client_id: Math.floor(Math.random() * 10000) + 1, message: text },
  }).then((r) => r.data);

async function withContext<T>(run: (context: BrowserContext) => Promise<T>, options = {}): Promise<T> {
  const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 }, ...options });
  try {
    return await run(context);
  } finally {
    await context.close();
  }
}

describe('the chats list', () => {
  it('lists chats by latest message, updates live, filters unread, searches, and passes axe', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      const [alice, bob, carol] = [await signUp(s.url, 'Alice'), await signUp(s.url, 'Bob'), await signUp(s.url, 'carol')];
      await signInThrough(page, 'Me');
      await page.waitForURL(/\/inbox$/);
      const aliceChat = await createChat(page, 'Alice', alice.phone);
      const bobChat = await createChat(page, 'Bob', bob.phone);
      const carolChat = await createChat(page, 'carol', carol.phone);
      await friendSays(bob, bobChat, 'from Bob');
      await friendSays(alice, aliceChat, 'from Alice');
      await expect.poll(() => rowNames(page)).toEqual(['Alice', 'Bob', 'carol']);
      await expect.poll(() => page.locator('.inbox-row', { hasText: 'Alice' }).textContent()).toContain('from Alice');

      // A message arriving live moves its chat to the top with an unread badge.
      await friendSays(carol, carolChat, 'hello from carol');
      await expect.poll(() => rowNames(page)).toEqual(['carol', 'Alice', 'Bob']);
      const carolRow = page.getByRole('link', { name: /^carol/ });
      await expect.poll(() => carolRow.getByTestId('unread-badge').textContent()).toBe('1');
      await expect.poll(() => carolRow.textContent()).toContain('hello from carol');

      // Opening a chat reads it: it leaves the Unread tab, and its row is the current one.
      await page.getByRole('link', { name: /^Alice/ }).click();
      await page.waitForURL(new RegExp(`/inbox/${aliceChat}$`));
      await expect.poll(() => page.getByRole('link', { name: /^Alice/ }).getAttribute('aria-current')).toBe('page');
      await expect.poll(async () => (await current(page, 'conversation', aliceChat))?.unreadCount).toBe(0);
      await page.getByRole('tab', { name: 'Unread' }).click();
      await expect.poll(() => rowNames(page)).toEqual(['carol', 'Bob']);
      expect(await page.getByRole('tab', { name: 'Unread' }).getAttribute('aria-selected')).toBe('true');
      await page.getByRole('tab', { name: 'All' }).click();

      // Search by name, in any case; its own empty state.
      const search = page.getByRole('searchbox', { name: 'Search chats' });
      await search.fill('CAR');
      await expect.poll(() => rowNames(page)).toEqual(['carol']);
      await search.fill('nobody by that name');
      await expect.poll(() => page.getByText('No conversations found').isVisible()).toBe(true);
      await search.fill('');
      await expect.poll(() => rowNames(page)).toEqual(['carol', 'Alice', 'Bob']);

      // A Swedish user has no community tabs and no Communities menu entry.
      expect(await page.getByRole('tab').allTextContents()).toEqual(['All', 'Unread']);
      expect(await page.getByRole('link', { name: 'Communities' }).count()).toBe(0);

      await page.goto(`${s.url}/inbox`);
      await expect.poll(() => rowNames(page)).toEqual(['carol', 'Alice', 'Bob']);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('is reachable by keyboard: menu, new chat, search, tabs and rows, each with a name', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      const friend = await signUp(s.url, 'Keyboard Friend');
      await signInThrough(page, 'Typist');
      await page.waitForURL(/\/inbox$/);
      await createChat(page, 'Keyboard Friend', friend.phone);
      await expect.poll(() => rowNames(page)).toEqual(['Keyboard Friend']);
      const names: string[] = [];
      await page.locator('body').focus();
      for (let i = 0; i < 8; i += 1) {
        await page.keyboard.press('Tab');
        names.push(
          await page.evaluate(() => {
            const el = document.activeElement as HTMLElement;
            // What a screen reader reads: aria-label, the <label>, else the text without aria-hidden parts.
            const visible = el.cloneNode(true) as HTMLElement;
            visible.querySelectorAll('[aria-hidden="true"]').forEach((n) => n.remove());
            const label =
              el.getAttribute('aria-label') ||
              (el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null) ||
              visible.textContent ||
              '';
            const outline = getComputedStyle(el).outlineStyle;
            return `${el.getAttribute('role') ?? el.tagName.toLowerCase()}:${label.trim()}:${outline === 'none' ? 'no-ring' : 'ring'}`;
          }),
        );
      }
      expect(names.slice(0, 6)).toEqual([
        'a:Chats:ring',
        'a:Settings:ring',
        'button:New chat:ring',
        'input:Search chats:ring',
        'tab:All:ring',
        expect.stringMatching(/^a:Keyboard Friend.*:ring$/),
      ]);
      // Enter on the focused row opens the chat.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/inbox\/\d+$/);
    });
  });

  it('shows the Communities and Groups tabs and the Communities menu to an Indonesian user', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      const phone = nextPhone('62');
      await page.evaluate(
        async ([p, pin]) => {
          await window.engine.requestPin(p);
          await window.engine.confirmPin(p, pin);
          await window.engine.register('Budi Baru');
        },
        [phone, TEST_PIN] as const,
      );
      await page.waitForURL(/\/inbox$/);
      await expect.poll(() => page.getByRole('tab').allTextContents()).toEqual(['All', 'Unread', 'Communities', 'Groups']);
      await page.getByRole('link', { name: 'Communities' }).click();
      await page.waitForURL(/\/explore$/);
      // The URL changes before the router renders the new screen.
      await expect.poll(() => page.getByRole('link', { name: 'Communities' }).getAttribute('aria-current')).toBe('page');
      await expect.poll(() => page.getByText('No communities available').isVisible()).toBe(true);
      const search = page.getByRole('searchbox', { name: 'Search communities' });
      await search.fill('nothing like this');
      await expect.poll(() => page.getByText('No communities found matching your search.').isVisible()).toBe(true);
      const owner = await signUp(s.url, 'Owner', '62');
      await insertCommunity(s.server.ctx.db, { name: 'Kopi Klub', ownerId: owner.id });
      await insertCommunity(s.server.ctx.db, { name: 'Batik Lovers', ownerId: owner.id });
      // An empty query clears the search: the whole list again.
      await search.fill('');
      await expect.poll(() => page.locator('.community-row__name').allTextContents()).toEqual(
        expect.arrayContaining(['Kopi Klub', 'Batik Lovers']),
      );
      await search.fill('KOPI');
      await expect.poll(() => page.locator('.community-row__name').allTextContents()).toEqual(['Kopi Klub']);
    });
  });

  it('shows the list or the chat on a narrow screen, not both', async () => {
    const friend = await signUp(s.url, 'Narrow Friend');
    await withContext(
      async (context) => {
        const page = await openTab(context, s.url);
        await signInThrough(page, 'Phone User');
        await page.waitForURL(/\/inbox$/);
        const chat = await createChat(page, 'Narrow Friend', friend.phone);
        const list = page.getByRole('searchbox', { name: 'Search chats' });
        const center = page.getByRole('main', { name: 'Chat' });
        await expect.poll(() => list.isVisible()).toBe(true);
        expect(await center.isVisible()).toBe(false);
        await page.getByRole('link', { name: /^Narrow Friend/ }).click();
        await page.waitForURL(new RegExp(`/inbox/${chat}$`));
        await expect.poll(() => center.isVisible()).toBe(true);
        expect(await list.isVisible()).toBe(false);
        expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false);
        await page.goto(`${s.url}/settings`);
        await expect.poll(() => page.getByRole('heading', { name: 'Settings' }).isVisible()).toBe(true);
        expect(await page.getByRole('link', { name: 'Settings' }).isVisible()).toBe(true);
      },
      { viewport: { width: 400, height: 760 } },
    );
  });

  it('renders fewer than 100 rows for 5,000 chats and scrolls to the last one', async () => {
    const friend = await signUp(s.url, 'Many');
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      const me = await signInThrough(page, 'Busy');
      const db = s.server.ctx.db;
      const base = Date.now() - 10_000_000;
      await db.transaction(async () => {
        for (let i = 0; i < 5000; i += 1) {
          await insertConversation(db, { members: [me.userId, friend.id], name: `Chat ${i}`, isGroup: true, now: base - i * 1000 });
        }
      });
      await page.goto(`${s.url}/inbox`);
      // The engine fetches 5,000 conversations (about 5 MB, one value across the port) before the list shows them.
      await expect.poll(() => rowNames(page), { timeout: 30_000 }).toContain('Chat 0');
      expect(await page.locator('.inbox-list__row').first().getAttribute('aria-setsize')).toBe('5000');
      expect(await page.locator('.inbox-row').count()).toBeLessThan(100);
      const list = page.getByTestId('inbox-list');
      await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      await expect.poll(() => rowNames(page)).toContain('Chat 4999');
      expect(await page.locator('.inbox-row').count()).toBeLessThan(100);
      expect(await page.getByRole('link', { name: /^Chat 4999/ }).isVisible()).toBe(true);
    });
  }, 60_000);

  it('creates a one-to-one chat from the add button and opens it', async () => {
    const friend = await signUp(s.url, 'New Friend');
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      await signInThrough(page, 'Creator');
      await page.waitForURL(/\/inbox$/);
      await page.getByRole('button', { name: 'New chat' }).click();
      for (const name of ['One-to-one chat', 'New group', 'New broadcast group']) {
        await expect.poll(() => page.getByRole('button', { name: new RegExp(`^${name}`) }).isVisible(), { message: name }).toBe(true);
      }
      await page.getByRole('button', { name: /^One-to-one chat/ }).click();
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => page.getByText('Name is required').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Phone number is required').isVisible()).toBe(true);
      // The first field in error has the focus.
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent)).toBe('Their name');
      await page.getByLabel('Their name').fill('Nya vännen');
      await page.getByLabel('Their phone number').fill('12345');
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => page.getByText('Invalid phone number').isVisible()).toBe(true);
      // A national number of the user's own country.
      await page.getByLabel('Their phone number').fill(`0${friend.phone.slice(3)}`);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/inbox\/\d+$/);
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      await expect.poll(() => page.getByRole('link', { name: /^New Friend/ }).getAttribute('aria-current')).toBe('page');
      const list = await current(page, 'conversations');
      expect(list.map((c) => c.conversation.id)).toEqual([id]);
    });
  });

  it('creates a group and a broadcast group from their forms; cancelling asks first', async () => {
    const [one, two] = [await signUp(s.url, 'Member One'), await signUp(s.url, 'Member Two')];
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      await signInThrough(page, 'Organiser');
      await page.waitForURL(/\/inbox$/);
      await page.getByRole('button', { name: 'New chat' }).click();
      await page.getByRole('button', { name: /^New group/ }).click();
      await expect.poll(() => page.getByLabel(/^Name of member/).count()).toBe(3);
      await page.getByRole('button', { name: 'Add more members' }).click();
      await expect.poll(() => page.getByLabel(/^Name of member/).count()).toBe(6);
      await page.getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => page.getByText('Name cannot be empty').isVisible()).toBe(true);
      await expect.poll(() => page.getByText('Add at least one member with a name and a phone number').isVisible()).toBe(true);

      await page.getByLabel('Group name').fill('Walkers');
      // Cancel asks first, in the app's own dialog: Keep editing has focus; Escape keeps the form, focus back on Cancel.
      await page.getByRole('button', { name: 'Cancel' }).click();
      const discard = page.getByRole('dialog', { name: 'Discard this group? What you typed will be lost.' });
      await expect.poll(() => discard.isVisible()).toBe(true);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keep editing');
      await page.keyboard.press('Escape');
      await expect.poll(() => discard.count()).toBe(0);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('button', { name: 'Keep editing' }).click();
      await expect.poll(() => discard.count()).toBe(0);
      expect(await page.getByLabel('Group name').inputValue()).toBe('Walkers');
      await page.getByLabel('Name of member 1').fill('Member One');
      await page.getByLabel('Phone number of member 1').fill(one.phone);
      await page.getByLabel('Name of member 2').fill('Member Two');
      await page.getByLabel('Phone number of member 2').fill(two.phone);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL(/\/inbox\/\d+$/);
      await expect.poll(() => page.getByRole('link', { name: /^Walkers/ }).getAttribute('aria-current')).toBe('page');
      const groupId = Number(new URL(page.url()).pathname.split('/').pop());
      const group = await current(page, 'conversation', groupId);
      expect(group?.conversation).toMatchObject({ is_group: true, member_count: 3 });
      expect(group?.conversation.settings.reply_to).toBe('0');

      await page.getByRole('button', { name: 'New chat' }).click();
      await page.getByRole('button', { name: /^New broadcast group/ }).click();
      await page.getByLabel('Group name').fill('News');
      await page.getByLabel('Name of member 1').fill('Member One');
      await page.getByLabel('Phone number of member 1').fill(one.phone);
      await page.getByRole('button', { name: 'Cancel' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
      // The engine drops the draft after the click: a form opened before that could still fill from it.
      await expect.poll(async () => Object.keys(await current(page, 'formDrafts'))).toEqual([]);
      await page.getByRole('button', { name: /^New broadcast group/ }).click();
      expect(await page.getByLabel('Group name').inputValue()).toBe('');
      await page.getByLabel('Group name').fill('News');
      await page.getByLabel('Name of member 1').fill('Member One');
      await page.getByLabel('Phone number of member 1').fill(one.phone);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.waitForURL((url) => /\/inbox\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${groupId}`));
      const broadcastId = Number(new URL(page.url()).pathname.split('/').pop());
      // The chat opens as soon as the server made it; the engine's list has it a moment later.
      await waitFor(page, 'conversation', [broadcastId], (broadcast) => {
        expect(broadcast?.conversation.settings.reply_to).toBe('1');
      });
      await expect.poll(() => rowNames(page)).toEqual(['News', 'Walkers']);
    });
  });

  it('goes back to the list when the open chat is removed', async () => {
    const owner = await signUp(s.url, 'Owner');
    await withContext(async (context) => {
      const page = await openTab(context, s.url);
      const me = await signInThrough(page, 'Member');
      const { conversation } = await call<{ conversation: { id: number } }>(s.url, 'POST', '/v2/conversations', {
        token: owner.token,
        form: { name: 'Short lived', force_group: 1, 'member[0][name]': 'Member', 'member[0][type]': 'phone_nr', 'member[0][value]': me.phone },
      }).then((r) => r.data);
      await page.goto(`${s.url}/inbox/${conversation.id}`);
      await expect.poll(() => rowNames(page)).toEqual(['Short lived']);
      await call(s.url, 'DELETE', `/v1/conversations/${conversation.id}/users/${me.userId}`, { token: owner.token }).then((r) => r.data);
      await page.waitForURL(/\/inbox$/);
      await expect.poll(() => rowNames(page)).toEqual([]);
    });
  });
});
