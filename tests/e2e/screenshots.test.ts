import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedConversationAnswer } from '../../src/protocol/api';
import { ManualClock } from '../../server/clock';
import { sql } from '../../server/db/store';
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
/** Whose screens show what docs/ui.md says of unread messages, deleted messages, the length limit and signing out. */
const DAG = { phone: '+46701230004', name: 'Dag Ek' };

let bobChatId = 0;
let dagBobChatId = 0;
type Sender = { id: number; phone: string; token: string };
let people: { bob: Sender; cecilia: Sender; dag: Sender } | null = null;

/** The form fields of one member of a new chat. */
const member = (p: { phone: string; name: string }, i: number) => ({
  [`member[${i}][name]`]: p.name,
  [`member[${i}][type]`]: 'phone_nr',
  [`member[${i}][value]`]: p.phone,
});

const WALK_LINES = [
  'Me! Where do we start?',
  'At the lighthouse, as last time.',
  'Nine o’clock?',
  'Half past nine, the ferry is late on Sundays.',
  'I will bring coffee ☕',
  'And I the cinnamon buns.',
  'Should we take the long path along the cliffs?',
  'Only if it does not rain.',
  'The forecast says sun all day.',
  'Then the long path it is.',
  'Bring good shoes, the rocks are slippery.',
  'See you at the lighthouse!',
];

/**
 * A new group of Dag's with thirteen messages he has not read, more than fit on a screen: one per screen size
 * and scheme, since opening it reads what it shows.
 */
async function walkClub(): Promise<number> {
  if (!people) throw new Error('no people yet');
  const { bob, cecilia } = people;
  const walks = await call<CreatedConversationAnswer>(s.url, 'POST', '/v2/conversations', {
    token: bob.token,
    form: { name: 'Walk club', force_group: '1', ...member(DAG, 0), ...member(CECILIA, 1) },
  });
  const id = walks.data.conversation.id;
  clock.advance(60_000);
  await sendAs(s, bob, id, 'Who is in for a walk on Sunday?');
  for (const [i, line] of WALK_LINES.entries()) {
    clock.advance(60_000);
    await sendAs(s, i % 2 === 0 ? cecilia : bob, id, line);
  }
  return id;
}

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

  // Dag's chats (none of Ada's screens show them): a one-to-one chat in which Bob deleted a message for
  // everybody after Dag had read it, and the groups of `walkClub`.
  const dag = await signUpFixed(DAG);
  const dagUser = { id: 0, phone: DAG.phone, token: dag.token };
  people = { bob: bobUser, cecilia: ceciliaUser, dag: dagUser };
  const pair = await call<CreatedConversationAnswer>(s.url, 'POST', '/v2/conversations', { token: bob.token, form: member(DAG, 0) });
  dagBobChatId = pair.data.conversation.id;
  clock.advance(60_000);
  await sendAs(s, bobUser, dagBobChatId, 'Did you get the tickets?');
  clock.advance(60_000);
  const wrong = await sendAs(s, bobUser, dagBobChatId, 'My PIN for the bank is 1234');
  clock.advance(60_000);
  await sendAs(s, dagUser, dagBobChatId, 'Yes, two for Saturday.');
  await call(s.url, 'POST', `/v2/conversations/${dagBobChatId}/delete/messages`, {
    token: bob.token,
    json: { message_ids: [wrong] },
  }).then((r) => r.data);
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

/** Dag signed in in this profile, as `signedInAda`. */
async function signedInDag(context: BrowserContext): Promise<Page> {
  clock.advance(16 * 60_000);
  const page = await openTab(context, `${s.url}/login`);
  await signInAs(page, DAG.phone);
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

      it('the unread divider, a deleted message, the length limit and the signed-out notice (docs/ui.md)', async () => {
        const walkClubId = await walkClub();
        const context = await contextFor(size, scheme);
        const page = await signedInDag(context);

        // Thirteen unread: the chat opens at the first of them, under its divider.
        await page.goto(`${s.url}/inbox/${walkClubId}`);
        await page.getByText('13 unread messages').waitFor();
        // The rows under the divider too: on a busy machine the divider can show before the page of messages.
        await page.getByRole('log').getByText('Who is in for a walk on Sunday?').waitFor();
        await matchScreenshot(page, name('unread-divider'));

        await page.goto(`${s.url}/inbox/${dagBobChatId}`);
        await page.getByRole('log').getByText('This message was deleted').waitFor();
        await page.getByRole('log').getByText('Yes, two for Saturday.').waitFor();
        await matchScreenshot(page, name('deleted-message'));

        // Past the limit: the count-down in red and the reason, the text kept.
        const input = page.getByRole('textbox', { name: 'Message', exact: true });
        await input.fill(`${'All work and no play. '.repeat(472)}`);
        await input.press('Enter');
        await page.getByText(/^A message can be at most 10,000 characters/).waitFor();
        await input.evaluate((el) => el.blur());
        await matchScreenshot(page, name('length-limit'));
        await input.fill('');

        // The server ends the session: the login screen says so and keeps the number.
        const dagId = (await s.server.ctx.db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${DAG.phone}`))!.id;
        await s.server.ctx.db.run(sql`DELETE FROM tokens WHERE user_id = ${dagId}`);
        await page.evaluate(() => window.engine.refreshConversations().catch(() => undefined));
        await page.getByRole('status').filter({ hasText: 'You were signed out' }).waitFor();
        await expect.poll(() => page.getByRole('textbox', { name: 'Phone number' }).inputValue()).toBe(DAG.phone);
        await matchScreenshot(page, name('signed-out'));
      });
    });
  }
}
