import { describe, expect, it } from 'vitest';
import { signUp, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, openTab, signedInPerson, signInAs, useChromium } from '../support/tabs';

/** Issue 23, item 12: a one-to-one chat's header and the person's profile say whether they are online. */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('presence', () => {
  it('says "online" while the other person is connected and when they were last seen after', async () => {
    const alice = await signedInPerson(chromium, s, 'Alice', { context: { viewport: { width: 1200, height: 800 } } });
    const bob = await signUp(s.url, 'Bob');
    const chatId = await createChat(alice.page, 'Bob', bob.phone);
    const { page } = alice;
    await page.goto(`${s.url}/inbox/${chatId}`);
    const status = page.locator('.chat-header .chat-status');
    // Nothing heard of Bob yet: his number, as before.
    await expect.poll(() => status.innerText()).toBe(bob.phone);

    const bobContext = await chromium.context();
    const bobPage = await openTab(bobContext, s.url);
    await signInAs(bobPage, bob.phone);
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('online');

    await page.getByRole('button', { name: 'Chat settings' }).click();
    const profile = page.locator('.cs-profile__presence');
    await expect.poll(() => profile.innerText()).toBe('online');

    await bobContext.close();
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toMatch(/^last seen today at \d\d:\d\d$/u);
    await expect.poll(() => profile.innerText()).toMatch(/^last seen today at \d\d:\d\d$/u);
  });
});
