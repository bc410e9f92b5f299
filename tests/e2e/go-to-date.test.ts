import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, TEST_PIN, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signInAs, useChromium } from '../support/tabs';

/**
 * "Go to date" (issue 24) in real Chromium against the real server: a 3,000-message group spread over about
 * ten days (a message every five minutes); choosing a day in the header's dialog opens the chat at that day's
 * first message, highlighted as a search hit is, by keyboard, in English and Swedish; a day after the last
 * message says so.
 */
const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const isoDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** The first message of the group at or after a day's local midnight (Chromium runs in this process's zone). */
async function firstOfDay(conversationId: number, day: Date): Promise<{ id: number; text: string }> {
  const midnight = new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
  const row = await s.server.ctx.db.get<{ id: number; message: string }>(
    sql`SELECT id, message FROM messages WHERE conversation_id = ${conversationId} AND created_at >= ${midnight}
        ORDER BY created_at, id LIMIT 1`,
  );
  return { id: Number(row!.id), text: row!.message };
}

/** The highlighted (found) message row's id, once the chat opened at it. */
const foundRow = (page: Page) =>
  page.locator('.chat-row-found [data-message-id], [data-message-id].chat-row-found, .chat-row-found[data-message-id]');

async function goToDate(page: Page, buttonName: string, day: string) {
  await page.getByRole('button', { name: buttonName }).click();
  const dialog = page.getByRole('dialog', { name: buttonName });
  await dialog.waitFor();
  // The date field has the focus: type the day and press Enter, as a keyboard user would.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: buttonName }).focus();
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await dialog.locator('input[type="date"]').fill(day);
  await page.keyboard.press('Enter');
}

describe('Go to date', () => {
  it('opens a big group at the first message of the chosen day, in English and Swedish', async () => {
    const user = await signUp(s.url, 'Historian');
    const now = Date.now();
    const group = await generateBigGroup(s.server.ctx.db, user.id, 3_000, now);
    const id = group.conversationId;
    const fiveDaysAgo = new Date(now - 5 * 86_400_000);
    const target = await firstOfDay(id, fiveDaysAgo);

    for (const [locale, button, none] of [
      ['en-US', 'Go to date', /^No messages on or after /],
      ['sv-SE', 'Gå till datum', /^Inga meddelanden den .* eller senare\.$/],
    ] as const) {
      const context = await chromium.browser.newContext({ locale, viewport: { width: 1000, height: 800 } });
      try {
        const page = await openTab(context, s.url);
        await signInAs(page, user.phone, TEST_PIN);
        await page.goto(`${s.url}/inbox/${id}`);
        await page.locator('[data-chat-view="chat"]').waitFor();

        await goToDate(page, button, isoDay(fiveDaysAgo));
        await expect.poll(() => new URL(page.url()).searchParams.get('message'), { timeout: 15_000 }).toBe(String(target.id));
        await expect.poll(() => foundRow(page).first().getAttribute('data-message-id'), { timeout: 15_000 }).toBe(String(target.id));
        await expect.poll(() => page.getByRole('log').getByText(target.text).isVisible()).toBe(true);

        // Tomorrow has no message yet: the dialog says so and stays, the chat stays where it is.
        await goToDate(page, button, isoDay(new Date(now + 86_400_000)));
        const alert = page.getByRole('dialog', { name: button }).getByRole('alert');
        await expect.poll(() => alert.textContent()).toMatch(none);
        expect(new URL(page.url()).searchParams.get('message')).toBe(String(target.id));
        await page.keyboard.press('Escape');
      } finally {
        await context.close();
      }
    }
  });
});
