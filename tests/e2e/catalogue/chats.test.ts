import { expect } from 'vitest';
import { generateBigGroup } from '../../../server/seed/history';
import { chatSetup, listed } from './chatSetup';
import { type CatalogueEntry, type Stage, walkCatalogue } from './stage';

/**
 * Spec §8 "Conversations" of the chats list, the chat view and chat creation. The "Failed to load …" texts
 * are what the screen says failed, the "Failed to fetch …" ones why (the engine's call text): both show.
 */

const LIST = /^\/v2\/conversations$/;
const CHAT = /^\/v2\/conversations\/\d+$/;
const PAGE = /^\/v2\/conversations\/\d+\/messages$/;

/** The chats list that cannot load: a new user whose list call is refused, with nothing cached. */
async function listThatFails(s: Stage) {
  s.proxy.fail('GET', LIST);
  const { page } = await s.person('Lonely');
  return page.locator('[data-inbox-state="error"]');
}

/** A chat opened by its URL that the engine does not know (its list fails too) and whose own call is refused. */
async function chatThatFails(s: Stage) {
  const setup = await chatSetup(s, {
    theirs: ['Hello'],
    before: () => {
      s.proxy.fail('GET', LIST);
      s.proxy.fail('GET', CHAT);
    },
  });
  await setup.page.goto(`${s.url}/inbox/${setup.conversationId}`);
  const shown = setup.page.locator('[data-chat-view="error"]');
  // Spec §8: a chat load error offers a retry (it reloads /inbox) and the chats list.
  await expect.poll(() => shown.getByRole('button', { name: s.t('chat.retry') }).count()).toBe(1);
  expect(await shown.locator('.chat-state__detail').innerText()).toBe(s.t('failures.fetchConversation'));
  return shown;
}

/** A chat the list has, whose latest messages are refused when it opens. */
async function pageThatFails(s: Stage) {
  const setup = await chatSetup(s, { theirs: ['Hello'] });
  await listed(setup);
  s.proxy.fail('GET', PAGE);
  await setup.page.goto(`${s.url}/inbox/${setup.conversationId}`);
  return setup.page.locator('[data-chat-error="open"]');
}

const entries: CatalogueEntry[] = [
  {
    spec: 'Failed to load conversations',
    key: 'inbox.loadFailed',
    provoke: listThatFails,
  },
  {
    spec: 'Failed to fetch conversations list',
    key: 'failures.fetchConversations',
    async provoke(s) {
      return (await listThatFails(s)).locator('.inbox-state__detail');
    },
  },
  {
    spec: 'Failed to load conversation',
    key: 'chat.loadFailed',
    provoke: chatThatFails,
  },
  {
    spec: 'Failed to fetch conversation',
    key: 'failures.fetchConversation',
    async provoke(s) {
      return (await chatThatFails(s)).locator('.chat-state__detail');
    },
  },
  {
    spec: 'Failed to fetch conversation messages',
    key: 'failures.fetchMessages',
    provoke: pageThatFails,
  },
  {
    spec: 'Failed to load conversation messages',
    key: 'chat.list.olderFailed',
    async provoke(s) {
      // More history than the engine keeps loaded ahead of the reader (issue 11: 100 messages, prefetched at
      // once), so older pages remain on the server when the calls start failing and the reader reaches the top.
      const { user, page } = await s.person('Reader');
      const group = await generateBigGroup(s.server.server.ctx.db, user.id, 400, Date.now());
      await page.goto(`${s.url}/inbox/${group.conversationId}`);
      const log = page.getByRole('log');
      await log.locator('[data-message-id]').first().waitFor();
      s.proxy.fail('GET', PAGE);
      const error = page.locator('[data-chat-error="older"]');
      // Up to the oldest loaded message, again while the engine's prefetch still brings pages in (from IndexedDB
      // or before the failing started): the reader's own request for the page beyond fails and says so.
      await expect
        .poll(async () => {
          await log.evaluate((el) => {
            el.scrollTop = 0;
          });
          return error.count();
        }, { timeout: 30_000, interval: 400 })
        .toBe(1);
      return error;
    },
  },
  {
    spec: 'Invalid conversation ID provided',
    key: 'failures.invalidConversationId',
    async provoke(s) {
      const { page } = await s.person('Curious', '/inbox/abc');
      const shown = page.locator('[data-chat-view="invalid"]');
      await shown.waitFor();
      // No retry can mend the URL: the way on is the chats list.
      expect(await shown.getByRole('button', { name: s.t('chat.retry') }).count()).toBe(0);
      expect(await shown.getByRole('link', { name: s.t('chat.header.back') }).count()).toBe(1);
      return shown;
    },
  },
  {
    spec: 'Failed to create conversation',
    key: 'failures.createConversation',
    async provoke(s) {
      const friend = await s.user('Friend');
      const { page } = await s.person('Creator');
      await page.getByRole('button', { name: s.t('inbox.newChat') }).click();
      await page.getByRole('button', { name: s.t('inbox.kind.private') }).click();
      const name = page.getByRole('textbox', { name: s.t('inbox.form.name'), exact: true });
      const phone = page.getByRole('textbox', { name: s.t('inbox.form.phone'), exact: true });
      await name.fill('Friend');
      await phone.fill(friend.phone);
      s.proxy.fail('POST', LIST);
      await page.getByRole('button', { name: s.t('inbox.form.create') }).click();
      const shown = page.locator('form [role="alert"]');
      await shown.waitFor();
      // Our ruling: the alert is inline in the form, and what was typed stays.
      expect(await name.inputValue()).toBe('Friend');
      expect(await phone.inputValue()).toBe(friend.phone);
      return shown;
    },
  },
];

walkCatalogue('conversations', entries);
