import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, openTab, sendText, useChromium } from '../support/tabs';
import { createGroup, person } from './chat-settings-support';
import { png } from './chat-view-support';

/**
 * Account editing (spec §2, issue 9) against the real server and the production build: the nickname and
 * picture change in every tab of the user at once and for a contact live; no version in a production build.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('the account page', () => {
  it('changes the nickname and picture, seen at once in another tab and live by a contact', async () => {
    const anna = await person(chromium, s, 'Anna');
    const erik = await person(chromium, s, 'Erik');
    const chat = await createChat(anna.page, 'Erik', erik.user.phone);
    const group = await createGroup(s, anna, 'Runners', [erik]);
    await sendText(anna.page, group, 'hi runners');
    const second = await openTab(anna.context, `${s.url}/profile`);
    await erik.page.goto(`${s.url}/inbox`);
    const erikRow = erik.page.locator(`[data-conversation-id="${chat}"]`);
    await expect.poll(() => erikRow.locator('.inbox-row__name').textContent(), { timeout: 10_000 }).toBe('Anna');
    const groupPreview = erik.page.locator(`[data-conversation-id="${group}"] .inbox-row__preview`);
    await expect.poll(() => groupPreview.textContent(), { timeout: 10_000 }).toBe('Anna: hi runners');

    const page = anna.page;
    await page.goto(`${s.url}/profile`);
    // A production build names no version or environment.
    await expect.poll(() => page.getByRole('button', { name: 'Change nickname' }).isVisible()).toBe(true);
    expect(await page.getByTestId('account-version').count()).toBe(0);
    expect(await page.getByTestId('account-environment').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Change nickname' }).click();
    await page.getByRole('textbox', { name: 'Nickname' }).fill('  Anna Lind  ');
    await page.getByRole('button', { name: 'Save nickname' }).click();
    await expect.poll(() => page.locator('.account__nickname').textContent()).toBe('Nickname: Anna Lind');
    // The user's other tab at once; Erik's chats list live.
    await expect.poll(() => second.locator('.account__nickname').textContent()).toBe('Nickname: Anna Lind');
    await expect.poll(() => erikRow.locator('.inbox-row__name').textContent(), { timeout: 10_000 }).toBe('Anna Lind');

    // A file that is not an image is refused inline; an image becomes the picture everywhere.
    const file = page.locator('.account input[type="file"]');
    await file.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Please select an image');
    await file.setInputFiles({ name: 'face.png', mimeType: 'image/png', buffer: png(64, 64) });
    await expect.poll(() => page.locator('.avatar-picker img').count()).toBe(1);
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => second.locator('.avatar-picker img').count()).toBe(1);
    await expect.poll(() => erikRow.locator('img').count(), { timeout: 10_000 }).toBe(1);
    const shown = await erikRow.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth);
    expect(shown).toBe(64);

    // Removing it brings the initials back, for Erik too.
    await page.getByRole('button', { name: 'Remove picture' }).click();
    await expect.poll(() => page.locator('.avatar-picker img').count()).toBe(0);
    await expect.poll(() => erikRow.locator('img').count(), { timeout: 10_000 }).toBe(0);

    // The group renames her in place (issue 23): its preview follows, and no "Anna is now Anna Lind" is posted.
    await expect.poll(() => groupPreview.textContent(), { timeout: 10_000 }).toBe('Anna Lind: hi runners');
    await erik.page.locator(`[data-conversation-id="${group}"]`).click();
    await expect.poll(() => erik.page.getByRole('log').getByText('hi runners').count(), { timeout: 10_000 }).toBe(1);
    expect(await erik.page.getByRole('log').getByText(/is now/).count()).toBe(0);
  });

  it('refuses a blank or too long nickname with the nickname step’s texts, in Swedish', async () => {
    const lisa = await person(chromium, s, 'Lisa', { locale: 'sv-SE' });
    const page = lisa.page;
    await page.goto(`${s.url}/profile`);
    await page.getByRole('button', { name: 'Ändra smeknamn' }).click();
    const input = page.getByRole('textbox', { name: 'Smeknamn' });
    await input.fill('   ');
    await input.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Ange ett smeknamn');
    await input.fill('x'.repeat(51));
    await input.press('Enter');
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Smeknamnet får vara högst 50 tecken');
    // Escape keeps the old nickname.
    await input.press('Escape');
    await expect.poll(() => page.locator('.account__nickname').textContent()).toBe('Smeknamn: Lisa');
  });
});
