import type { Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '../../src/protocol/api';
import { insertConversation } from '../support/fixtures';
import { call, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signedInPerson, signInAs, useChromium, waitFor } from '../support/tabs';

/**
 * Delete for everybody leaves a trace (docs/ui.md "Deleted messages"): two people in two browser profiles
 * against the reference server; the one who had already read the message sees "This message was deleted"
 * with its time in its place, live, after a reload and on a fresh device, and the chats list says so too.
 * A reply to it under way ends. Delete for me still removes the row.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const LANGUAGES = [
  {
    language: 'en',
    locale: 'en-US',
    actions: 'Message actions',
    reply: 'Reply',
    delete: 'Delete',
    forEverybody: 'Delete for everybody',
    forMe: 'Delete for me',
    deleted: 'This message was deleted',
    deletedOwn: 'You deleted this message',
    messageFrom: 'Message from Anna',
  },
  {
    language: 'sv',
    locale: 'sv-SE',
    actions: 'Meddelandeåtgärder',
    reply: 'Svara',
    delete: 'Radera',
    forEverybody: 'Radera för alla',
    forMe: 'Radera för mig',
    deleted: 'Det här meddelandet har raderats',
    deletedOwn: 'Du raderade det här meddelandet',
    messageFrom: 'Meddelande från Anna',
  },
] as const;

type Texts = (typeof LANGUAGES)[number];

const row = (page: Page, id: number): Locator => page.locator(`section[data-conversation-id] [data-message-id="${id}"]`);

async function openChat(page: Page, id: number): Promise<void> {
  await page.goto(`${s.url}/inbox/${id}`);
  await page.locator(`section[data-conversation-id="${id}"]`).waitFor();
}

async function deleteThrough(page: Page, messageId: number, texts: Texts, choice: 'forEverybody' | 'forMe'): Promise<void> {
  await page.locator(`[data-actions-for="${messageId}"]`).getByRole('button', { name: texts.actions }).click();
  await page.getByRole('menuitem', { name: texts.delete, exact: true }).click();
  await page.getByRole('button', { name: texts[choice] }).click();
}

/** The placeholder of a deleted message: its text and time, and nothing else of the message. */
async function expectPlaceholder(page: Page, id: number, texts: Texts, time: { text: string; iso: string }): Promise<void> {
  const placeholder = row(page, id);
  await expect.poll(() => placeholder.textContent(), { timeout: 15_000 }).toBe(`${texts.deleted}${time.text}`);
  expect(await placeholder.locator('time').getAttribute('datetime')).toBe(time.iso);
  expect(await page.locator(`[data-actions-for="${id}"]`).count()).toBe(0);
  expect(await placeholder.locator('.reaction-bar').count()).toBe(0);
}

for (const texts of LANGUAGES) {
  describe(`a message deleted for everybody (${texts.language})`, () => {
    it('shows its placeholder with its time to the reader, live, after a reload and on a fresh device', async () => {
      const context = { locale: texts.locale };
      const anna = await signedInPerson(chromium, s, 'Anna', { context });
      const erik = await signedInPerson(chromium, s, 'Erik', { context });
      const chatId = (await insertConversation(s.server.ctx.db, { members: [anna.user.id, erik.user.id] })).id;
      const say = async (who: typeof anna, text: string, quoted?: number) =>
        (
          await call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${chatId}/messages`, {
            token: who.user.token,
            json: { client_id: 1 + Math.floor(Math.random() * 10_000), message: text, ...(quoted ? { quoted_message_id: quoted } : {}) },
          })
        ).data.message;
      await say(erik, 'Hi Anna');
      const secret = await say(anna, 'Meet me at the secret place');
      const reply = await say(erik, 'Which place?', secret.id);

      // Erik reads it: the row shows the text and its time.
      await openChat(erik.page, chatId);
      await expect.poll(() => row(erik.page, secret.id).getByText('Meet me at the secret place').count()).toBe(1);
      const timeEl = row(erik.page, secret.id).locator('time');
      const time = { text: (await timeEl.textContent()) ?? '', iso: (await timeEl.getAttribute('datetime')) ?? '' };
      expect(time.text).not.toBe('');
      // Erik starts a reply to it, which its deletion ends.
      await erik.page.locator(`[data-actions-for="${secret.id}"]`).getByRole('button', { name: texts.actions }).click();
      await erik.page.getByRole('menuitem', { name: texts.reply, exact: true }).click();
      await erik.page.getByTestId('composer-reply-preview').waitFor();

      await openChat(anna.page, chatId);
      await row(anna.page, secret.id).waitFor();
      await deleteThrough(anna.page, secret.id, texts, 'forEverybody');

      // Live, for both: the placeholder in the sender's place, with the time the message had.
      await expectPlaceholder(erik.page, secret.id, texts, time);
      await expectPlaceholder(anna.page, secret.id, texts, time);
      await expect.poll(() => erik.page.getByTestId('composer-reply-preview').count()).toBe(0);
      expect(await row(erik.page, secret.id).getAttribute('aria-label')).toBe(texts.messageFrom);
      expect(await row(erik.page, secret.id).getAttribute('class')).toContain('msg-other');
      expect(await row(anna.page, secret.id).getAttribute('class')).toContain('msg-own');
      // The reply quoting it shows the quote as deleted.
      await expect.poll(() => row(erik.page, reply.id).locator('.msg-quote-text').textContent()).toBe(texts.deleted);
      expect(await erik.page.getByText('Meet me at the secret place').count()).toBe(0);

      // After a reload (what the device kept), and on a fresh device (what the server keeps).
      await erik.page.reload();
      await expectPlaceholder(erik.page, secret.id, texts, time);
      const fresh = await openTab(await chromium.context(context), s.url);
      await signInAs(fresh, erik.user.phone);
      await openChat(fresh, chatId);
      await expectPlaceholder(fresh, secret.id, texts, time);
      await expect.poll(() => row(fresh, reply.id).locator('.msg-quote-text').textContent()).toBe(texts.deleted);

      // Deleting the latest message: the chats list says it was deleted, in the reader's and the sender's words.
      const last = await say(anna, 'Forget this one too');
      await waitFor(erik.page, 'messages', [chatId], (v) => expect(v.messages.some((m) => m.id === last.id)).toBe(true));
      await row(anna.page, last.id).waitFor();
      await deleteThrough(anna.page, last.id, texts, 'forEverybody');
      const preview = (page: Page) => page.locator('.inbox-row__preview').first().textContent();
      await expect.poll(() => preview(erik.page), { timeout: 15_000 }).toBe(texts.deleted);
      await expect.poll(() => preview(anna.page), { timeout: 15_000 }).toBe(texts.deletedOwn);

      // Delete for me still removes the row (here the placeholder's neighbour, Erik's reply).
      await deleteThrough(erik.page, reply.id, texts, 'forMe');
      await expect.poll(() => row(erik.page, reply.id).count()).toBe(0);
      expect(await row(erik.page, secret.id).count()).toBe(1);
    }, 120_000);
  });
}
