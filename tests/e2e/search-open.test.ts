import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { generateBigGroup } from '../../server/seed/history';
import { sql } from '../../server/db/store';
import { signUp, TEST_PIN, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, useChromium } from '../support/tabs';
import { expectNumberRun, loadedNumbers, signInAs } from './chat-view-support';

/**
 * Search results that open a chat far back (issue 13), against the real server in real Chromium: a
 * 100,000-message group; a hit on its 500th message opens the chat there (loaded around it by Before and
 * After, the message on screen and highlighted), and Jump to latest goes back to the end; a hit 300 messages
 * back opens there, and scrolling down with the wheel loads the newer pages (by After) until the latest.
 *
 * The engine indexes what it stores, so each far-back message is first put on the device through the console
 * API (`openConversationAt`, then `loadLatestMessages`): what this covers of the UI is the search, the
 * choice of a hit and the opening at it from a window that holds only the latest page.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const COUNT = 100_000;
const FAR = 500;
const NEAR = COUNT - 300;

/** The "#n" of each message row drawn and on screen in the list, top to bottom, and whether it is at its end. */
const drawn = (page: Page) =>
  page.getByRole('log').evaluate((el) => {
    const box = el.getBoundingClientRect();
    const rows = [...el.querySelectorAll<HTMLElement>('[data-message-id]')]
      .map((row) => ({
        n: Number(/^#(\d+) /.exec(row.querySelector('.msg-text')?.textContent ?? '')?.[1] ?? 0),
        top: row.getBoundingClientRect().top,
        bottom: row.getBoundingClientRect().bottom,
        found: row.closest('.chat-row-found') !== null,
      }))
      .filter((r) => r.n > 0)
      .sort((a, b) => a.top - b.top);
    const visible = rows.filter((r) => r.top >= box.top && r.bottom <= box.bottom);
    return {
      visible: visible.map((r) => r.n),
      found: rows.filter((r) => r.found).map((r) => r.n),
      atEnd: el.scrollHeight - el.scrollTop - el.clientHeight,
    };
  });

/** Searches the chats list for `query` and chooses the message hit that reads `text`. */
async function chooseHit(page: Page, query: string, text: string) {
  await page.getByRole('searchbox', { name: 'Search chats' }).fill(query);
  const hit = page.getByRole('region', { name: 'Messages' }).getByRole('link').filter({ hasText: text });
  await expect.poll(() => hit.count(), { timeout: 15_000 }).toBe(1);
  await hit.click();
}

describe('a search hit far back in a big group', () => {
  it('opens the chat at the message, highlighted; Jump to latest and scrolling down reach the latest', async () => {
    const user = await signUp(s.url, 'Finder');
    const db = s.server.ctx.db;
    const group = await generateBigGroup(db, user.id, COUNT, Date.now());
    const id = group.conversationId;
    // Two messages get words nothing else in the group has.
    const idOf = async (n: number) =>
      (await db.get<{ id: number }>(sql`SELECT id FROM messages WHERE conversation_id = ${id} AND message LIKE ${`#${n} %`}`))!.id;
    const far = await idOf(FAR);
    const near = await idOf(NEAR);
    await db.run(sql`UPDATE messages SET message = ${`#${FAR} Meet at the Zanzibar kafé at noon`} WHERE id = ${far}`);
    await db.run(sql`UPDATE messages SET message = ${`#${NEAR} The quokka plan is on`} WHERE id = ${near}`);

    const context = await chromium.browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      const page = await openTab(context, s.url);
      await signInAs(page, user.phone, TEST_PIN);
      await page.goto(`${s.url}/inbox`);
      await expect.poll(() => page.getByRole('link', { name: /^Big group/ }).count()).toBe(1);
      // On the device: the engine indexes what it stores.
      await page.evaluate(
        async ([chat, ids]) => {
          for (const messageId of ids) await window.engine.openConversationAt(chat, messageId);
          await window.engine.loadLatestMessages(chat);
        },
        [id, [far, near]] as const,
      );
      expect((await loadedNumbers(page, id)).numbers.at(-1)).toBe(COUNT);

      // Far back: opened there from the latest page, on screen and highlighted.
      await chooseHit(page, 'zanzibar kafe', 'Zanzibar');
      await expect.poll(() => new URL(page.url()).search).toBe(`?message=${far}`);
      await expect.poll(async () => (await drawn(page)).visible.includes(FAR), { timeout: 15_000 }).toBe(true);
      expect((await drawn(page)).found).toEqual([FAR]);
      const around = await loadedNumbers(page, id);
      expect(around.hasNewer).toBe(true);
      expect(around.numbers).toContain(FAR);
      expectNumberRun(around.numbers);
      // The highlight goes after a while; Jump to latest goes to the end of the chat.
      await expect.poll(async () => (await drawn(page)).found, { timeout: 10_000 }).toEqual([]);
      await page.getByRole('button', { name: /Jump to latest/ }).click();
      await expect.poll(async () => (await drawn(page)).visible.includes(COUNT), { timeout: 15_000 }).toBe(true);
      expect((await loadedNumbers(page, id)).hasNewer).toBe(false);

      // 300 back: opened there, then the wheel takes the reader down through the newer pages to the latest.
      await chooseHit(page, 'quokka', 'quokka');
      await expect.poll(async () => (await drawn(page)).visible.includes(NEAR), { timeout: 15_000 }).toBe(true);
      expect((await drawn(page)).found).toEqual([NEAR]);
      expect((await loadedNumbers(page, id)).hasNewer).toBe(true);
      const log = page.getByRole('log');
      const box = await log.boundingBox();
      if (!box) throw new Error('the list is not on the page');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      for (let step = 0; step < 600; step++) {
        await page.mouse.wheel(0, 1_000);
        await page.waitForTimeout(30);
        if (step % 10 === 9) {
          const window = await loadedNumbers(page, id);
          expectNumberRun(window.numbers);
          const { visible, atEnd } = await drawn(page);
          if (visible.includes(COUNT) && atEnd <= 2 && !window.hasNewer) break;
        }
      }
      await expect.poll(async () => (await drawn(page)).visible.includes(COUNT)).toBe(true);
      const bottom = await loadedNumbers(page, id);
      expect(bottom.hasNewer).toBe(false);
      expect(bottom.numbers.at(-1)).toBe(COUNT);
      expectNumberRun(bottom.numbers);
    } finally {
      await context.close();
    }
  }, 240_000);
});
