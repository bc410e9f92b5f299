import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { loadConversation, serializeConversation } from '../../server/domain/serialize';
import { insertConversation } from '../support/fixtures';
import { signUp, type TestUser, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, openTab, signedInPerson, signInAs, useChromium, waitFor } from '../support/tabs';
import { sendAs } from './chat-view-support';

/**
 * A chat with many unread messages opens at the first of them (docs/ui.md, "Opening at the first unread
 * message"): under the divider "34 unread messages", near the top of the view, with "Jump to latest" below; the
 * messages are read as the reader sees them (the server's count goes down, the newest is not read yet), and
 * scrolling to the bottom reads the last one: its read receipt reaches the server and the badge goes to 0.
 */
const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const UNREAD = 34;
const VIEWPORT = { width: 1000, height: 800 };

const TEXTS = {
  en: { divider: `${UNREAD} unread messages`, jump: /^Jump to latest/ },
  sv: { divider: `${UNREAD} olästa meddelanden`, jump: /^Till senaste/ },
};

/** What the server counts as unread for the reader (its `unread_message_count`). */
async function serverCount(userId: number, conversationId: number): Promise<number | null> {
  const db = s.server.ctx.db;
  const row = await loadConversation(db, conversationId);
  return row ? (await serializeConversation(db, row, userId, 1)).unread_message_count : null;
}

/** Whether someone sent a read receipt for the message (what its sender's ticks show). */
async function readReceipted(messageId: number): Promise<boolean> {
  const rows = await s.server.ctx.db.all<{ type: string }>(sql`SELECT type FROM receipts WHERE message_id = ${messageId}`);
  return rows.some((r) => r.type === 'read');
}

/** The friend's 34 messages, oldest first; answers their ids. */
async function friendSends(friend: TestUser, conversationId: number): Promise<number[]> {
  const ids: number[] = [];
  for (let n = 1; n <= UNREAD; n++) ids.push(await sendAs(s, friend, conversationId, `Unread ${n}`));
  return ids;
}

/** Whether the element is inside the list's viewport (drawn rows beyond it, the overscan, are not). */
async function inView(page: Page, selector: string): Promise<boolean> {
  const list = await page.getByRole('log').boundingBox();
  const element = page.getByRole('log').locator(selector);
  const box = (await element.count()) > 0 ? await element.first().boundingBox() : null;
  return list !== null && box !== null && box.y >= list.y - 1 && box.y + box.height <= list.y + list.height + 1;
}

/** The list's row index of the slot holding `selector`'s first match. */
const slotIndex = async (page: Page, selector: string) =>
  Number(await page.getByRole('log').locator('.chat-row-slot').filter({ has: page.locator(selector) }).first().getAttribute('data-index'));

/**
 * Opens the chat from the chats list and checks what the issue asks for, in the page's language: the divider
 * above the first unread message near the top, Jump to latest, the newest not read, then the wheel to the bottom
 * reads it.
 */
async function readsFromTheDivider(page: Page, reader: TestUser, conversationId: number, ids: number[], texts: (typeof TEXTS)['en']) {
  const inboxRow = page.locator(`.inbox-row[data-conversation-id="${conversationId}"]`);
  const badge = inboxRow.getByTestId('unread-badge');
  await expect.poll(() => badge.textContent()).toBe(String(UNREAD));
  await inboxRow.click();
  await page.waitForURL(new RegExp(`/inbox/${conversationId}$`));

  const log = page.getByRole('log');
  const divider = log.getByRole('separator', { name: texts.divider });
  await expect.poll(() => divider.isVisible()).toBe(true);
  expect(await divider.innerText()).toBe(texts.divider);
  // Right above the first unread message, and near the top of the view.
  const first = ids[0] as number;
  const last = ids[ids.length - 1] as number;
  expect(await slotIndex(page, `[data-message-id="${first}"]`)).toBe((await slotIndex(page, '.chat-unread')) + 1);
  const listBox = await log.boundingBox();
  const dividerBox = await divider.boundingBox();
  if (!listBox || !dividerBox) throw new Error('the list or the divider is not on the page');
  expect(dividerBox.y - listBox.y).toBeLessThan(120);
  await expect.poll(() => page.getByRole('button', { name: texts.jump }).isVisible()).toBe(true);

  // What is on screen is read (the server's count goes down, the badge with it), the newest is not.
  await expect.poll(() => serverCount(reader.id, conversationId)).toBeLessThan(UNREAD);
  await expect.poll(async () => Number(await badge.textContent())).toBeLessThan(UNREAD);
  expect(await serverCount(reader.id, conversationId)).toBeGreaterThan(0);
  expect(Number(await badge.textContent())).toBeGreaterThan(0);
  expect(await readReceipted(last)).toBe(false);
  expect(await inView(page, `[data-message-id="${last}"]`)).toBe(false);

  // Scrolling to the bottom reads the last message: its read receipt goes out and the badge goes.
  const box = listBox;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect
    .poll(async () => {
      await page.mouse.wheel(0, 600);
      return inView(page, `[data-message-id="${last}"]`);
    })
    .toBe(true);
  await expect.poll(() => readReceipted(last)).toBe(true);
  await expect.poll(() => serverCount(reader.id, conversationId)).toBe(0);
  await expect.poll(() => badge.count()).toBe(0);
  await expect.poll(() => page.getByRole('button', { name: texts.jump }).count()).toBe(0);
}

describe('a chat with unread messages opens at the first of them', () => {
  it('in English: the divider "34 unread messages", read as the reader scrolls, the last one at the bottom', async () => {
    const reader = await signedInPerson(chromium, s, 'Reader', { context: { viewport: VIEWPORT } });
    const friend = await signUp(s.url, 'Friend');
    // A chat read up to the reader's own first message: this device knows where the reader stopped.
    const chatId = await createChat(reader.page, 'Friend', friend.phone);
    await sendAs(s, reader.user, chatId, 'Hi, are you there?');
    await reader.page.goto(`${s.url}/inbox`);
    await expect.poll(() => reader.page.locator(`.inbox-row[data-conversation-id="${chatId}"]`).count()).toBe(1);
    await waitFor(reader.page, 'conversation', [chatId], (item) => expect(item?.conversation.last_message?.message).toBe('Hi, are you there?'));
    const ids = await friendSends(friend, chatId);
    await readsFromTheDivider(reader.page, reader.user, chatId, ids, TEXTS.en);
  });

  it('in Swedish: "34 olästa meddelanden", also on a device that signs in after they came', async () => {
    const reader = await signUp(s.url, 'Läsaren');
    const friend = await signUp(s.url, 'Vännen');
    const chatId = (await insertConversation(s.server.ctx.db, { members: [friend.id, reader.id], isGroup: false })).id;
    await sendAs(s, friend, chatId, 'Hej!');
    await sendAs(s, reader, chatId, 'Hej hej');
    const ids = await friendSends(friend, chatId);
    // A new sign-in: the engine does not know where the reader stopped, only the server's count.
    const context = await chromium.context({ viewport: VIEWPORT });
    const page = await openTab(context, s.url);
    await signInAs(page, reader.phone);
    await page.evaluate(() => window.engine.setLanguage('sv'));
    await page.reload();
    await readsFromTheDivider(page, reader, chatId, ids, TEXTS.sv);
  });
});
