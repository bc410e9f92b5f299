import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { generateBigGroup } from '../../server/seed/history';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';
import { expectNumberRun, loadedNumbers, openAtLatest } from './chat-view-support';

/**
 * History that keeps up (issue 11), against the real server: a 3,000-message group scrolled up with the mouse
 * wheel, fast, to its very first message and back down. The loaded window and the rows in the page stay
 * bounded; what is loaded is always one run of history (no gap, no message twice); a row the reader looks
 * at stays put while pages are added above it or trimmed away; and Jump to latest works after a trim.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const COUNT = 3_000;
/** The engine keeps at most about this many messages of the chat loaded (a screen, and pages beyond each edge). */
const WINDOW_BOUND = 420;

/** Two animation frames: the list has measured what the last change rendered. */
const frames = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));

/** The "#n" of each message row drawn in the list (its text; a sender's name or a quote may come first), top to bottom. */
const drawn = (page: Page) =>
  page.getByRole('log').evaluate((el) => {
    const box = el.getBoundingClientRect();
    const rows = [...el.querySelectorAll<HTMLElement>('[data-message-id]')]
      .map((row) => ({ n: Number(/^#(\d+) /.exec(row.querySelector('.msg-text')?.textContent ?? '')?.[1] ?? 0), top: row.getBoundingClientRect().top }))
      .filter((r) => r.n > 0)
      .sort((a, b) => a.top - b.top);
    const visible = rows.filter((r) => r.top >= box.top && r.top < box.bottom);
    return { rows: rows.map((r) => r.n), visible: visible.map((r) => r.n), scrollTop: el.scrollTop, atEnd: el.scrollHeight - el.scrollTop - el.clientHeight };
  });

/** Where a message's row is on screen now (null when it is not drawn). */
const rowTop = (page: Page, n: number) =>
  page.getByRole('log').evaluate((el, wanted) => {
    const row = [...el.querySelectorAll<HTMLElement>('[data-message-id]')].find((r) =>
      r.querySelector('.msg-text')?.textContent?.startsWith(`#${wanted} `),
    );
    return row ? row.getBoundingClientRect().top : null;
  }, n);

/**
 * The reader stops, looks at the row in the middle of the list, and waits until the engine has added or
 * trimmed pages (or half a second passed): the row has not moved by a pixel.
 */
async function expectRowStays(page: Page, conversationId: number) {
  // The wheel's smooth scrolling goes on a little after the last notch (longer on a busy machine): the reader
  // has stopped when the list has not moved for three looks in a row.
  let last = Number.NaN;
  for (let i = 0, still = 0; i < 60 && still < 3; i++) {
    await page.waitForTimeout(150);
    const { scrollTop } = await drawn(page);
    still = scrollTop === last ? still + 1 : 0;
    last = scrollTop;
  }
  const { visible } = await drawn(page);
  const n = visible[Math.floor(visible.length / 2)] as number;
  const before = await rowTop(page, n);
  const window = (await loadedNumbers(page, conversationId)).numbers;
  for (let waited = 0; waited < 500; waited += 50) {
    const now = (await loadedNumbers(page, conversationId)).numbers;
    if (now[0] !== window[0] || now.length !== window.length) break;
    await page.waitForTimeout(50);
  }
  await frames(page);
  await frames(page);
  const after = await rowTop(page, n);
  expect(after, `#${n}, with ${JSON.stringify((await drawn(page)).visible)} on screen`).toBe(before);
}

describe('a long history, scrolled fast', () => {
  it('goes up to the first message and back down with the wheel: bounded, in one run, and nothing jumps', async () => {
    const user = await signUp(s.url, 'Reader');
    const group = await generateBigGroup(s.server.ctx.db, user.id, COUNT, Date.now());
    const id = group.conversationId;
    const context = await chromium.browser.newContext({ viewport: { width: 1000, height: 800 } });
    try {
      const page = await openAtLatest(context, s.url, user.phone, id, COUNT);

      // Up, fast: a big wheel step every frame or two, with a pause now and then to look at one row.
      let most = 0;
      let mostRows = 0;
      for (let step = 0; step < 2_000; step++) {
        await page.mouse.wheel(0, -1_500);
        await page.waitForTimeout(16);
        if (step % 10 === 9) {
          const window = await loadedNumbers(page, id);
          expectNumberRun(window.numbers);
          most = Math.max(most, window.numbers.length);
          const { rows, visible } = await drawn(page);
          mostRows = Math.max(mostRows, rows.length);
          if (visible.includes(1)) break;
          if (step % 40 === 39) await expectRowStays(page, id);
        }
      }
      await expect.poll(async () => (await drawn(page)).visible.includes(1)).toBe(true);
      const top = await loadedNumbers(page, id);
      expect(top.numbers[0]).toBe(1);
      expect(top.hasNewer).toBe(true);
      expectNumberRun(top.numbers);

      // And back down to the latest message.
      for (let step = 0; step < 2_000; step++) {
        await page.mouse.wheel(0, 1_500);
        await page.waitForTimeout(16);
        if (step % 10 === 9) {
          const window = await loadedNumbers(page, id);
          expectNumberRun(window.numbers);
          most = Math.max(most, window.numbers.length);
          const { rows, visible, atEnd } = await drawn(page);
          mostRows = Math.max(mostRows, rows.length);
          if (visible.includes(COUNT) && atEnd <= 2 && !window.hasNewer) break;
          if (step % 40 === 39) await expectRowStays(page, id);
        }
      }
      await expect.poll(async () => (await drawn(page)).visible.includes(COUNT)).toBe(true);
      const bottom = await loadedNumbers(page, id);
      expect(bottom.hasNewer).toBe(false);
      expect(bottom.numbers[bottom.numbers.length - 1]).toBe(COUNT);
      expectNumberRun(bottom.numbers);
      expect(most).toBeLessThanOrEqual(WINDOW_BOUND);
      expect(mostRows).toBeLessThan(80);

      // Far up again (the newer end is trimmed), then Jump to latest.
      for (let step = 0; step < 400; step++) {
        await page.mouse.wheel(0, -1_500);
        await page.waitForTimeout(16);
        if (step % 10 === 9 && (await loadedNumbers(page, id)).hasNewer) break;
      }
      expect((await loadedNumbers(page, id)).hasNewer).toBe(true);
      await page.getByRole('button', { name: /Jump to latest/ }).click();
      await expect.poll(async () => (await drawn(page)).visible.includes(COUNT)).toBe(true);
      await expect.poll(async () => (await drawn(page)).atEnd).toBeLessThanOrEqual(2);
      expect((await loadedNumbers(page, id)).hasNewer).toBe(false);
    } finally {
      await context.close();
    }
  }, 240_000);
});
