import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signUp, useTestServer } from '../support/server';
import { socketProxy, type SocketProxy } from '../support/socketProxy';
import { CLIENT_DIR, createChat, openTab, signedInPerson, signInAs, useChromium } from '../support/tabs';

/** Issue 23, item 12: a one-to-one chat's header and the person's profile say whether they are online. */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();
let proxy: SocketProxy;
beforeAll(async () => {
  proxy = await socketProxy(Number(new URL(s.url).port));
});
afterAll(() => proxy.close());

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

  it('knows it at once in a chat opened after the change: online, or last seen (the server is asked)', async () => {
    const dan = await signUp(s.url, 'Dan');
    const danContext = await chromium.context();
    const danPage = await openTab(danContext, s.url);
    await signInAs(danPage, dan.phone);
    // Dan has been online since before Carol came: no user_presence will reach her until he leaves.
    const carol = await signedInPerson(chromium, s, 'Carol', { context: { viewport: { width: 1200, height: 800 }, locale: 'sv-SE' } });
    const chatId = await createChat(carol.page, 'Dan', dan.phone);
    await carol.page.goto(`${s.url}/inbox/${chatId}`);
    const status = carol.page.locator('.chat-header .chat-status');
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('online');
    await danContext.close();
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toMatch(/^senast sedd idag kl\. \d\d[:.]\d\d$/u);

    // Erik shares a chat with Dan but signs in only now, after Dan left: "last seen" from the start.
    const erik = await signedInPerson(chromium, s, 'Erik', { context: { viewport: { width: 1200, height: 800 } } });
    const erikChat = await createChat(erik.page, 'Dan', dan.phone);
    await erik.page.goto(`${s.url}/inbox/${erikChat}`);
    await expect
      .poll(() => erik.page.locator('.chat-header .chat-status').innerText(), { timeout: 15_000 })
      .toMatch(/^last seen today at \d\d:\d\d$/u);
  });

  it('asks again after its socket was away: a change missed meanwhile is not left showing "online"', async () => {
    const finn = await signUp(s.url, 'Finn');
    const finnContext = await chromium.context();
    await signInAs(await openTab(finnContext, s.url), finn.phone);
    // Gia's tab reaches the server through the proxy, which can hold her websocket off.
    const gia = await signUp(s.url, 'Gia');
    const giaContext = await chromium.context({ viewport: { width: 1200, height: 800 } });
    const page = await openTab(giaContext, proxy.url);
    await signInAs(page, gia.phone);
    const chatId = await createChat(page, 'Finn', finn.phone);
    await page.goto(`${proxy.url}/inbox/${chatId}`);
    const status = page.locator('.chat-header .chat-status');
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('online');

    proxy.holdWebsockets(true);
    await finnContext.close();
    // The server knows Finn left; the user_presence that says so found no socket of Gia's (it is not replayed).
    await expect
      .poll(async () => (await call<{ online: boolean }>(s.url, 'GET', `/v1/users/${finn.id}/presence`, { token: gia.token })).data.online, {
        timeout: 20_000,
      })
      .toBe(false);
    proxy.holdWebsockets(false);
    await expect.poll(() => status.innerText(), { timeout: 20_000 }).toMatch(/^last seen today at \d\d:\d\d$/u);
    await giaContext.close();
  });
});
