import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, current, signedInPerson, useChromium } from '../support/tabs';

/**
 * Issue 23, item 11: a chat opened from the keyboard puts the cursor in its message box, and the main screen
 * has app-wide shortcuts (search, previous and next chat, a shortcut list on `?`).
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('aria-label') ?? (el as HTMLInputElement).placeholder ?? ''}` : '';
  });
const path = (page: Page) => new URL(page.url()).pathname;

describe('keyboard', () => {
  it('opens a chat by Enter with the cursor in its message box, and moves between chats with Alt+arrows', async () => {
    const me = await signedInPerson(chromium, s, 'Keys', { context: { viewport: { width: 1200, height: 800 } } });
    const bob = await signUp(s.url, 'Bob');
    const cecilia = await signUp(s.url, 'Cecilia');
    await createChat(me.page, 'Bob', bob.phone);
    await createChat(me.page, 'Cecilia', cecilia.phone);
    const { page } = me;
    await page.goto(`${s.url}/inbox`);
    const order = (await current(page, 'conversations')).map((c) => c.conversation.id);
    expect(order).toHaveLength(2);
    const [first, second] = order as [number, number];

    const row = page.locator(`.main-screen__left a[data-conversation-id="${first}"]`);
    await row.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => path(page)).toBe(`/inbox/${first}`);
    await expect.poll(() => focused(page)).toBe('textarea:Message');

    await page.keyboard.press('Alt+ArrowDown');
    await expect.poll(() => path(page)).toBe(`/inbox/${second}`);
    await expect.poll(() => focused(page)).toBe('textarea:Message');
    // The last chat has no next one.
    await page.keyboard.press('Alt+ArrowDown');
    await page.keyboard.press('Alt+ArrowUp');
    await expect.poll(() => path(page)).toBe(`/inbox/${first}`);
    await expect.poll(() => focused(page)).toBe('textarea:Message');
  });

  it('focuses search with Ctrl+K and /, and lists the shortcuts on ? outside text fields', async () => {
    const { page } = await signedInPerson(chromium, s, 'Finder', { context: { viewport: { width: 1200, height: 800 } } });
    const bob = await signUp(s.url, 'Bob');
    const chatId = await createChat(page, 'Bob', bob.phone);
    await page.goto(`${s.url}/inbox/${chatId}`);
    const box = page.getByRole('textbox', { name: 'Message', exact: true });
    await box.waitFor();
    const search = page.locator('.main-screen__left input[type="search"]');

    // In the message box `/` and `?` are text; Ctrl+K still searches.
    await box.focus();
    await page.keyboard.type('Why/how?');
    expect(await box.inputValue()).toBe('Why/how?');
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.keyboard.press('Control+k');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.getByRole('heading', { name: 'Bob' }).click();
    await page.keyboard.press('/');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await search.inputValue()).toBe('');

    // From settings, the search of the chats list.
    await page.goto(`${s.url}/settings`);
    await page.locator('body').click({ position: { x: 900, y: 400 } });
    await page.keyboard.press('Control+k');
    await expect.poll(() => path(page)).toBe('/inbox');
    await expect.poll(() => search.evaluate((el) => el === document.activeElement)).toBe(true);

    await page.locator('body').click({ position: { x: 900, y: 400 } });
    await page.keyboard.press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await dialog.waitFor();
    expect(await dialog.locator('kbd').allInnerTexts()).toEqual(expect.arrayContaining(['Ctrl+K', '/', 'Alt+↑', 'Alt+↓', '?', 'Esc']));
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
