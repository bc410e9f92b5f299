import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TEXT_MAX } from '../../src/protocol/constants';
import { HOSTILE_CORPUS } from '../support/hostileText';
import { call, useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';
import { createGroup, openSettings, panel, person } from './chat-settings-support';
import { sendAs } from './chat-view-support';

/**
 * Issue 20: text from other people is hostile until rendered. One member sends the corpus of odd texts,
 * names a group with one and takes one as a nickname; the other member opens the chats list, the chat, the
 * group's settings and the app's settings: no error screen, nothing thrown in the page, every message shown.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** Page errors (uncaught exceptions) of a tab, from now on. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

/** What the server keeps of a text: at most its message length. */
const sendable = (text: string) => (text.length > MESSAGE_TEXT_MAX ? text.slice(0, MESSAGE_TEXT_MAX) : text);

/**
 * Scrolls the message log from top to bottom and returns every message id that was rendered on the way. Each
 * step waits two frames before it reads the rows: otherwise, on a busy machine, the scroll to the top and the
 * first step down reach the list as one scroll event, the list never draws its top rows, and keeps the row it
 * did draw in place while the rows above it are measured (as it should), so the first message is never seen.
 */
async function renderedMessageIds(page: Page): Promise<Set<number>> {
  const log = page.getByRole('log');
  const seen = new Set<number>();
  const afterFrames = () =>
    log.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  // At the top once the rows drawn there are measured (the list keeps the top row at the top).
  await expect
    .poll(async () => {
      await log.evaluate((el) => el.scrollTo(0, 0));
      await afterFrames();
      return log.evaluate((el) => el.scrollTop);
    })
    .toBe(0);
  for (let step = 0; step < 400; step++) {
    const ids = await log.locator('[data-message-id]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-message-id'))));
    ids.forEach((id) => seen.add(id));
    const done = await log.evaluate((el) => {
      const atEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 2;
      el.scrollBy(0, el.clientHeight * 0.8);
      return atEnd;
    });
    if (done) break;
    await afterFrames();
  }
  return seen;
}

const noErrorScreen = async (page: Page) => {
  expect(await page.getByText('Something went wrong').count()).toBe(0);
  expect(await page.getByText('Show Error').count()).toBe(0);
  expect(await page.locator('.row-failed').count()).toBe(0);
};

describe('hostile text', () => {
  it('renders a corpus of odd messages, a group named with one and a nickname with one, everywhere', async () => {
    const mallory = await person(chromium, s, 'Mallory');
    const reader = await person(chromium, s, 'Reader');
    const errors = pageErrors(reader.page);

    const groupName = 'mailto:a%E0@b.se ‮xe.gpj';
    const groupId = await createGroup(s, mallory, groupName, [reader]);
    const nickname = '{{x}} <b>%E0 \ud800 ‮';
    await call(s.url, 'PUT', '/v1/me', { token: mallory.user.token, json: { nickname } });
    const ids: number[] = [];
    // A message of only spaces is refused (it has no text): the property tests cover that kind.
    for (const { text } of HOSTILE_CORPUS.filter((c) => c.text.trim() !== '')) ids.push(await sendAs(s, mallory.user, groupId, sendable(text)));

    // The chats list: the group's row with its name and the last message's preview.
    await reader.page.goto(`${s.url}/inbox`);
    await expect.poll(() => reader.page.getByText('mailto:a%E0@b.se', { exact: false }).count()).toBeGreaterThan(0);
    await noErrorScreen(reader.page);

    // The chat: every message rendered once scrolled through, none a placeholder.
    await reader.page.goto(`${s.url}/inbox/${groupId}`);
    await expect.poll(() => reader.page.getByRole('log').locator('[data-message-id]').count()).toBeGreaterThan(0);
    const rendered = await renderedMessageIds(reader.page);
    expect(ids.filter((id) => !rendered.has(id))).toEqual([]);
    // A link that is one (the bare domain and the address), and no other scheme anywhere.
    const hrefs = await reader.page.getByRole('log').locator('a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toContain('https://example.se/');
    expect(hrefs).toContain('mailto:anna@example.se');
    for (const href of hrefs) expect(href).toMatch(/^(https?:\/\/|mailto:)/);
    await noErrorScreen(reader.page);

    // The group's settings (its name, the members with the odd nickname), then the app's settings.
    await openSettings(reader.page);
    await expect.poll(() => panel(reader.page).getByText('{{x}} <b>%E0', { exact: false }).count()).toBeGreaterThan(0);
    await noErrorScreen(reader.page);
    await reader.page.goto(`${s.url}/settings`);
    await expect.poll(() => reader.page.getByRole('heading', { name: 'Settings' }).count()).toBeGreaterThan(0);
    await noErrorScreen(reader.page);

    expect(errors).toEqual([]);
  });
});
