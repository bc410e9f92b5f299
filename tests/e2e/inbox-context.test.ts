import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { call, signUp, useTestServer, type TestUser } from '../support/server';
import { CLIENT_DIR, createChat, openTab, signInThrough, useChromium } from '../support/tabs';

/** Issue 23, item 8: the list and the tab say who wrote, what is unsent, and how much is unread. */
const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const says = (friend: TestUser, conversationId: number, text: string) =>
  call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token: friend.token,
    json: { client_id: Math.floor(Math.random() * 10000) + 1, message: text },
  });

const row = (page: Page, id: number) => page.locator(`[data-conversation-id="${id}"]`);
const previewOf = (page: Page, id: number) => row(page, id).locator('.inbox-row__preview').textContent();
/** The badge counts each tab asked for, in order (the Badging API, recorded). */
const badges = (page: Page) => page.evaluate(() => (window as unknown as { badges: number[] }).badges);

describe('the chats list in context (issue 23)', () => {
  it('names group senders, marks drafts, says what an empty tab holds, and counts unread chats in every tab', async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 } });
    await context.addInitScript(() => {
      const badges: number[] = [];
      (window as unknown as { badges: number[] }).badges = badges;
      Object.assign(navigator, {
        setAppBadge: (n?: number) => Promise.resolve(void badges.push(n ?? 0)),
        clearAppBadge: () => Promise.resolve(void badges.push(0)),
      });
    });
    try {
      const a = await openTab(context, s.url);
      const b = await openTab(context, s.url);
      const erik = await signUp(s.url, 'Erik');
      const sara = await signUp(s.url, 'Sara');
      await signInThrough(a, 'Anna');
      await a.waitForURL(/\/inbox$/);
      await b.waitForURL(/\/inbox$/);
      expect(await a.title()).toBe('Messenger');

      // The Unread tab, empty, says so rather than "No conversations yet".
      await a.getByRole('tab', { name: 'Unread' }).click();
      await expect.poll(() => a.locator('.inbox-state__title').textContent()).toBe('No unread chats');
      await a.getByRole('tab', { name: 'All' }).click();

      const direct = await createChat(a, 'Sara', sara.phone);
      const group = await a.evaluate(
        async ([e, sa]) => {
          const { conversation } = await window.engine.call('createConversation', {
            members: [
              { name: 'Erik', value: e },
              { name: 'Sara', value: sa },
            ],
            name: 'Book club',
          });
          await window.engine.refreshConversations();
          return conversation.id;
        },
        [erik.phone, sara.phone] as const,
      );

      // A group's preview names its sender; a one-to-one chat's does not; one's own says "You".
      await says(erik, group, 'Hej Sara');
      await says(sara, direct, 'Hej Anna');
      await expect.poll(() => previewOf(b, group), { timeout: 15_000 }).toBe('Erik: Hej Sara');
      await expect.poll(() => previewOf(b, direct)).toBe('Hej Anna');

      // Two unread chats: the title and the badge of both tabs say 2.
      await expect.poll(() => a.title(), { timeout: 15_000 }).toBe('(2) Messenger');
      await expect.poll(() => b.title()).toBe('(2) Messenger');
      await expect.poll(async () => (await badges(b)).at(-1)).toBe(2);

      // Reading one in tab a lowers the count in both.
      await a.goto(`${s.url}/inbox/${direct}`);
      await expect.poll(() => a.title(), { timeout: 15_000 }).toBe('(1) Messenger');
      await expect.poll(() => b.title()).toBe('(1) Messenger');

      // A draft typed in tab a's chat shows in tab b's list as "Draft: …", in place of the last message.
      const composer = a.getByRole('textbox', { name: 'Message', exact: true });
      await composer.fill('half a thought');
      await expect.poll(() => previewOf(b, direct), { timeout: 15_000 }).toBe('Draft: half a thought');
      // Not in the row of the chat it is typed in, in tab a.
      expect(await previewOf(a, direct)).toBe('Hej Anna');
      await composer.fill('');
      await expect.poll(() => previewOf(b, direct), { timeout: 15_000 }).toBe('Hej Anna');

      // Own messages in a group say "You:"; reading the group clears the title and the badge.
      await a.goto(`${s.url}/inbox/${group}`);
      await a.evaluate((id) => window.engine.sendMessage(id, { text: 'Kul' }), group);
      await expect.poll(() => previewOf(b, group), { timeout: 15_000 }).toBe('You: Kul');
      await expect.poll(() => b.title()).toBe('Messenger');
      await expect.poll(async () => (await badges(b)).at(-1)).toBe(0);

      // In Swedish.
      await a.evaluate(() => window.engine.setLanguage('sv'));
      await says(erik, group, 'Hej igen');
      await a.goto(`${s.url}/inbox`);
      await expect.poll(() => previewOf(a, group), { timeout: 15_000 }).toBe('Erik: Hej igen');
      await expect.poll(() => a.title()).toBe('(1) Messenger');
      await a.evaluate((id) => window.engine.setDraft(id, 'snart'), direct);
      await expect.poll(() => previewOf(a, direct)).toBe('Utkast: snart');
      await a.goto(`${s.url}/inbox/${group}`);
      await expect.poll(() => a.title()).toBe('Messenger');
      // The read goes to the server in the background: leave once it is there, or the next page's list
      // (the server's) may still count the group unread for a moment.
      await expect
        .poll(() => a.evaluate(async (id) => (await window.engine.call('getConversation', id)).conversation.unread_message_count, group))
        .toBe(0);
      await a.goto(`${s.url}/inbox`);
      await a.getByRole('tab', { name: 'Olästa' }).click();
      await expect.poll(() => a.locator('.inbox-state__title').textContent()).toBe('Inga olästa chattar');
    } finally {
      await context.close();
    }
  });

  it('titles a one-to-one chat with a number that has no account by the name typed, with its initial (item 3)', async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const page = await openTab(context, s.url);
      await signInThrough(page, 'Anna');
      await page.waitForURL(/\/inbox$/);
      const chat = await page.evaluate(async () => {
        const { conversation } = await window.engine.call('createConversation', {
          members: [{ name: 'Okänd', value: '0761234567' }],
        });
        await window.engine.refreshConversations();
        return conversation.id;
      });
      await expect.poll(() => row(page, chat).locator('.inbox-row__name').textContent(), { timeout: 10_000 }).toBe('Okänd');
      expect(await row(page, chat).getByTestId('avatar').textContent()).toBe('O');
    } finally {
      await context.close();
    }
  });
});
