import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedConversationAnswer } from '../../src/protocol/api';
import { ManualClock } from '../../server/clock';
import { call, startTestServer, TEST_PIN, type TestServer } from '../support/server';
import { matchScreenshot } from '../support/screenshot';
import { CLIENT_DIR, openTab, signInAs, useChromium, waitFor } from '../support/tabs';
import { sendAs } from './chat-view-support';

/**
 * The main screens at 1280 and 390 px, light and dark, against committed baselines (issue 10), so a layout
 * regression shows as a failing test. Everything on them is fixed: the server's clock and the tabs'
 * (Europe/Stockholm), the people, their numbers and the messages, the database starting empty so ids and
 * avatar colours repeat. `UPDATE_SCREENSHOTS=1` writes new baselines after an intended change.
 */

const NOW = Date.UTC(2026, 0, 15, 9, 30);
const clock = new ManualClock(NOW);
let s: TestServer;
const chromium = useChromium();

const ADA = { phone: '+46701230001', name: 'Ada Lindqvist' };
const BOB = { phone: '+46701230002', name: 'Bob Berg' };
const CECILIA = { phone: '+46701230003', name: 'Cecilia Holm' };

let bobChatId = 0;

/** A user signed up over REST with a fixed number; its token. */
async function signUpFixed(person: { phone: string; name: string }): Promise<{ token: string }> {
  await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: person.phone } }).then((r) => r.data);
  const { token } = (
    await call<{ token: string }>(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: person.phone, pin: TEST_PIN } })
  ).data;
  await call(s.url, 'POST', '/v2/me/register', { token, json: { name: person.name } }).then((r) => r.data);
  return { token };
}

beforeAll(async () => {
  s = await startTestServer({ clientDir: CLIENT_DIR }, { clock });
  const ada = await signUpFixed(ADA);
  const bob = await signUpFixed(BOB);
  const cecilia = await signUpFixed(CECILIA);
  const member = (p: { phone: string; name: string }, i: number) => ({
    [`member[${i}][name]`]: p.name,
    [`member[${i}][type]`]: 'phone_nr',
    [`member[${i}][value]`]: p.phone,
  });
  const one = await call<CreatedConversationAnswer>(s.url, 'POST', '/v2/conversations', { token: bob.token, form: member(ADA, 0) });
  bobChatId = one.data.conversation.id;
  const adaUser = { id: 0, phone: ADA.phone, token: ada.token };
  const bobUser = { id: 0, phone: BOB.phone, token: bob.token };
  const ceciliaUser = { id: 0, phone: CECILIA.phone, token: cecilia.token };
  await sendAs(s, bobUser, bobChatId, 'Hi Ada! Are we still on for Saturday?');
  clock.advance(60_000);
  await sendAs(s, adaUser, bobChatId, 'Yes 🙂 Ten o’clock at the harbour café.');
  clock.advance(60_000);
  await sendAs(s, bobUser, bobChatId, 'Perfect, see you there. I will bring the map of the islands.');
  const group = await call<CreatedConversationAnswer>(s.url, 'POST', '/v2/conversations', {
    token: cecilia.token,
    form: { name: 'Book club', force_group: '1', ...member(ADA, 0), ...member(BOB, 1) },
  });
  clock.advance(60_000);
  await sendAs(s, ceciliaUser, group.data.conversation.id, 'Next book: The Emigrants by Vilhelm Moberg 📚');
});
afterAll(async () => {
  await s?.close();
});

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;
const SCHEMES = ['light', 'dark'] as const;

async function contextFor(size: (typeof SIZES)[number], scheme: (typeof SCHEMES)[number]): Promise<BrowserContext> {
  const context = await chromium.context({
    viewport: size.viewport,
    colorScheme: scheme,
    locale: 'en-US',
    timezoneId: 'Europe/Stockholm',
    // steady() adds an inline style (no animations, the test fonts), which the app's CSP refuses.
    bypassCSP: true,
    ...(size.name === 'phone' ? { isMobile: true, hasTouch: true, deviceScaleFactor: 1 } : {}),
  });
  // The tabs' clock a few minutes after the last message (the engine's worker keeps the real time).
  await context.clock.setFixedTime(new Date(NOW + 10 * 60_000));
  return context;
}

/** Ada signed in in this profile (the server's clock moved past the PIN request limit first). */
async function signedInAda(context: BrowserContext): Promise<Page> {
  clock.advance(16 * 60_000);
  const page = await openTab(context, `${s.url}/login`);
  await signInAs(page, ADA.phone);
  await waitFor(page, 'connection', [], (state) => expect(state).toBe('online'));
  return page;
}

for (const size of SIZES) {
  for (const scheme of SCHEMES) {
    describe(`${size.name} ${size.viewport.width} px, ${scheme}`, () => {
      const name = (screen: string) => `${screen}-${size.viewport.width}-${scheme}`;

      it('the login screen', async () => {
        const context = await contextFor(size, scheme);
        const page = await openTab(context, `${s.url}/login`);
        await page.getByRole('button', { name: 'Send code' }).waitFor();
        await matchScreenshot(page, name('login'));
      });

      it('the chats list, a chat, the group form and settings', async () => {
        const context = await contextFor(size, scheme);
        const page = await signedInAda(context);

        await page.goto(`${s.url}/inbox`);
        await page.getByRole('link', { name: /Book club/ }).first().waitFor();
        await matchScreenshot(page, name('inbox'));

        await page.goto(`${s.url}/inbox/${bobChatId}`);
        await page.getByRole('log').getByText('I will bring the map of the islands.').waitFor();
        await matchScreenshot(page, name('chat'));

        await page.goto(`${s.url}/inbox`);
        await page.getByRole('button', { name: 'New chat' }).click();
        await page.getByRole('button', { name: /^New group/ }).click();
        await page.getByRole('textbox', { name: /group name/i }).waitFor();
        await matchScreenshot(page, name('group-form'));

        await page.goto(`${s.url}/settings`);
        await page.getByRole('link', { name: /Account/ }).first().waitFor();
        await matchScreenshot(page, name('settings'));
      });
    });
  }
}
