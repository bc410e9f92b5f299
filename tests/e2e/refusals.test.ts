import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { MESSAGE_TEXT_MAX } from '../../src/protocol/constants';
import { sql } from '../../server/db/store';
import { runAdmin } from '../../server/admin/cli';
import { nextPhone, signUp, TEST_PIN, useTestServer } from '../support/server';
import { CLIENT_DIR, openTab, signedInWithFriend, useChromium } from '../support/tabs';

/**
 * Every refusal of the sign-in and send paths a user can meet, walked in the real app against the real
 * server, in a browser whose language is English and in one whose language is Swedish, neither of which
 * ever chose a language in the app (docs/ui.md "Refusals"). Each shows the app's own text for the
 * server's code with the wait in the browser's language ("om 15 minuter"), and the Swedish walk fails on
 * any English sentence: the app's English text or the server's English message.
 *
 * Not walked, because the app refuses them itself before the server can: a malformed phone number, an
 * empty or over-long nickname, an empty message and a send in the demo chat; a send past the rate is never
 * shown (the outbox waits and sends it, docs/server.md "Refusal codes").
 */

const LANGUAGES = ['en', 'sv'] as const;
type Language = (typeof LANGUAGES)[number];

type Tree = { [key: string]: string | Tree };
const LOCALES = path.resolve(import.meta.dirname, '../../src/locales');
const locale = (language: Language, file: string): Tree =>
  JSON.parse(readFileSync(path.join(LOCALES, language, `${file}.json`), 'utf8')) as Tree;

/** A text of the locale files as i18next gives it, `{{max, number}}` in the language's digits. */
function text(language: Language, key: string, vars: Record<string, string | number> = {}): string {
  const [file = '', ...rest] = key.split('.');
  let node: string | Tree | undefined = locale(language, file);
  for (const part of rest) node = typeof node === 'object' ? node[part] : undefined;
  if (typeof node !== 'string') throw new Error(`no text ${key} in ${language}`);
  return node.replace(/\{\{\s*(\w+)\s*(?:,\s*(\w+)\s*)?\}\}/g, (whole, name: string, format?: string) => {
    const value = vars[name];
    if (value === undefined) throw new Error(`${key} needs ${name}`);
    return format === 'number' && typeof value === 'number' ? new Intl.NumberFormat(language).format(value) : String(value);
  });
}

/** A wait as the app words it (errors.wait.minutes_one / _other, hours from two hours on). */
function waitText(language: Language, minutes: number): string {
  const hours = minutes >= 120;
  const count = hours ? Math.ceil(minutes / 60) : minutes;
  const table = (locale(language, 'errors').wait ?? {}) as Tree;
  const unit = hours ? 'hours' : 'minutes';
  const form = new Intl.PluralRules(language).select(count) === 'one' ? 'one' : 'other';
  return String(table[`${unit}_${form}`]).replace('{{count}}', String(count));
}

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const pinFailures = async (phone: string) =>
  Number(
    (await server.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM pin_failures WHERE phone_nr = ${phone}`))!.n,
  );
const pinRequests = async (base: { server: typeof server.server }, phone: string) =>
  Number((await base.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM pin_requests WHERE phone_nr = ${phone}`))!.n);

describe.each(LANGUAGES)('refusals in the browser’s language, none chosen (%s)', (language) => {
  // A server of its own whose per-address limit is three sign-in requests a minute (the other tests stay under theirs).
  const limited = useTestServer({ clientDir: CLIENT_DIR, authIpLimit: 3 });
  const t = (key: string, vars?: Record<string, string | number>) => text(language, key, vars);

  /** A fresh profile whose browser speaks `language`, its tab on `where`; the app is never told a language. */
  async function tab(base: string, where = '/login'): Promise<Page> {
    const context = await chromium.context({ locale: language === 'sv' ? 'sv-SE' : 'en-US' });
    return openTab(context, `${base}${where}`);
  }

  /** The phone step with Sweden and `phone`, then Send code. */
  async function sendCode(page: Page, phone: string): Promise<void> {
    await page.getByRole('combobox', { name: t('login.phone.country') }).selectOption('SE');
    await page.getByRole('textbox', { name: t('login.phone.number') }).fill(`0${phone.slice(3, 5)}-${phone.slice(5)}`);
    await page.getByRole('button', { name: t('login.phone.submit') }).click();
  }

  async function toPinStep(page: Page, phone: string): Promise<void> {
    await sendCode(page, phone);
    await page.getByRole('textbox', { name: t('login.pin.digit', { n: 1, total: 4 }) }).waitFor();
  }

  const wrongPin = [...TEST_PIN].map((d) => String((Number(d) + 5) % 10)).join('');
  const alert = (page: Page) => page.locator('form').getByRole('alert');

  /**
   * Types a PIN once the step takes one (the boxes empty, writable, the first focused), and waits for its
   * first digit to clear what the last try showed: whatever shows next is this try's answer.
   */
  async function typePin(page: Page, pin: string): Promise<void> {
    const first = page.getByRole('textbox', { name: t('login.pin.digit', { n: 1, total: 4 }) });
    await expect
      .poll(() => first.evaluate((box: HTMLInputElement) => box === document.activeElement && !box.readOnly && box.value === ''))
      .toBe(true);
    await page.keyboard.type(pin.slice(0, 1));
    await expect.poll(() => alert(page).innerText()).toBe('');
    await page.keyboard.type(pin.slice(1));
  }

  /**
   * `shown` comes to hold `expected`; in Swedish it holds no English sentence: neither the app's English
   * text for the refusal nor the server's English message.
   */
  async function shows(shown: Locator, expected: string, english: readonly string[]): Promise<void> {
    await expect.poll(() => shown.innerText({ timeout: 1_000 }).catch(() => '')).toContain(expected);
    const seen = await shown.innerText();
    if (language === 'sv') for (const sentence of english) expect(seen, 'an English sentence').not.toContain(sentence);
  }

  it('too many PIN requests for the number: says when to ask again', async () => {
    const page = await tab(server.url);
    const phone = nextPhone();
    await toPinStep(page, phone);
    const resend = page.getByRole('button', { name: t('login.pin.resend') });
    for (let sent = 2; sent <= 5; sent++) {
      await resend.click();
      await expect.poll(() => pinRequests(server, phone)).toBe(sent);
    }
    await resend.click();
    await shows(alert(page), t('errors.refusals.pinRequestsLimited', { wait: waitText(language, 15) }), [
      text('en', 'errors.refusals.pinRequestsLimited', { wait: waitText('en', 15) }),
      'Too many PIN requests for this number. Try again in 15 minutes.',
    ]);
  });

  it('the PIN could not be sent', async () => {
    const { ctx } = server.server;
    const deliver = ctx.announcePin;
    ctx.announcePin = () => Promise.reject(new Error('the SMS gateway is down'));
    try {
      const page = await tab(server.url);
      await sendCode(page, nextPhone());
      await shows(page.locator('form'), t('errors.refusals.pinNotSent'), [
        text('en', 'errors.refusals.pinNotSent'),
        'The PIN code could not be sent. Please try again.',
      ]);
    } finally {
      ctx.announcePin = deliver;
    }
  });

  it('an account an operator deactivated (npm run admin -- users deactivate)', async () => {
    const user = await signUp(server.url, 'Gone');
    const io = { env: { DATA_DIR: server.dataDir }, out: () => undefined, err: () => undefined };
    expect(await runAdmin(['users', 'deactivate', user.phone], io)).toBe(0);
    const page = await tab(server.url);
    await sendCode(page, user.phone);
    await shows(page.locator('form'), t('errors.refusals.accountDeactivated'), [
      text('en', 'errors.refusals.accountDeactivated'),
      'This account has been deactivated.',
    ]);
  });

  it('too many sign-in attempts from this address: says when to try again', async () => {
    const page = await tab(limited.url);
    const phone = nextPhone();
    await toPinStep(page, phone);
    const resend = page.getByRole('button', { name: t('login.pin.resend') });
    for (let sent = 2; sent <= 3; sent++) {
      await resend.click();
      await expect.poll(() => pinRequests(limited, phone)).toBe(sent);
    }
    await resend.click();
    await shows(alert(page), t('errors.refusals.signInAttemptsLimited', { wait: waitText(language, 1) }), [
      text('en', 'errors.refusals.signInAttemptsLimited', { wait: waitText('en', 1) }),
      'Too many sign-in attempts from this address. Please wait a minute.',
    ]);
  });

  it('a wrong PIN, then the lockout at the fifth: the right PIN too is told the number is locked and when it opens', async () => {
    const page = await tab(server.url);
    const phone = nextPhone();
    await toPinStep(page, phone);
    for (let tries = 1; tries <= 4; tries++) {
      await typePin(page, wrongPin);
      await expect.poll(() => pinFailures(phone)).toBe(tries);
      await shows(alert(page), t('login.invalidPinCode'), [text('en', 'login.invalidPinCode'), 'Invalid PIN code']);
    }
    const locked = t('errors.refusals.pinLocked', { wait: waitText(language, 15) });
    const english = [
      text('en', 'errors.refusals.pinLocked', { wait: waitText('en', 15) }),
      'Too many wrong PIN codes. This number is locked; try again in 15 minutes.',
    ];
    await typePin(page, wrongPin);
    await shows(alert(page), locked, english);
    expect(await pinFailures(phone)).toBe(5);

    // The right PIN while locked: still the lockout and when it opens, not "expired".
    await typePin(page, TEST_PIN);
    await shows(alert(page), locked, [...english, text(language, 'errors.refusals.pinExpired'), 'The PIN code has expired']);
    expect(await pinFailures(phone)).toBe(5);
  });

  it('an expired PIN', async () => {
    const page = await tab(server.url);
    const phone = nextPhone();
    await toPinStep(page, phone);
    await server.server.ctx.db.run(sql`UPDATE pins SET expires_at = 0 WHERE phone_nr = ${phone}`);
    await typePin(page, TEST_PIN);
    await shows(alert(page), t('errors.refusals.pinExpired'), [
      text('en', 'errors.refusals.pinExpired'),
      'The PIN code has expired or was never sent. Please request a new one.',
    ]);
  });

  it('the day’s wrong tries used up: says when the number opens', async () => {
    const page = await tab(server.url);
    const phone = nextPhone();
    await toPinStep(page, phone);
    // Ten wrong tries today (two PINs' worth, the lock between them waited out): the next try, the right PIN
    // too, is refused until the first of them is a day old.
    const now = Date.now();
    for (let i = 0; i < 10; i++) await server.server.ctx.db.run(sql`INSERT INTO pin_failures (phone_nr, at) VALUES (${phone}, ${now})`);
    await typePin(page, TEST_PIN);
    await shows(alert(page), t('errors.refusals.pinFailuresLimited', { wait: waitText(language, 24 * 60) }), [
      text('en', 'errors.refusals.pinFailuresLimited', { wait: waitText('en', 24 * 60) }),
      'Too many wrong PIN codes for this number. Please try again tomorrow.',
    ]);
  });

  it('a message longer than the server takes: the composer says so before sending, and so does a script', async () => {
    const page = await tab(server.url, '/');
    const { conversationId } = await signedInWithFriend(page, server.url, 'Ada');
    await page.goto(`${server.url}/inbox/${conversationId}`);
    const composer = page.getByRole('textbox', { name: t('chatActions.composer.label'), exact: true });
    await composer.fill('x'.repeat(MESSAGE_TEXT_MAX + 1));
    await composer.press('Enter');
    const vars = (l: Language) => ({ max: new Intl.NumberFormat(l).format(MESSAGE_TEXT_MAX), over: '1' });
    await shows(page.locator('.composer-problem[role="alert"]'), t('chatActions.composer.tooLong_one', vars(language)), [
      text('en', 'chatActions.composer.tooLong_one', vars('en')),
      `A message can be at most ${MESSAGE_TEXT_MAX} characters`,
    ]);
    expect(await composer.inputValue()).toHaveLength(MESSAGE_TEXT_MAX + 1);
    // The engine refuses it too, before queuing, with the server's code: the app words it.
    const refused = await page.evaluate(
      ([id, long]) => window.engine.sendMessage(id, { text: long }).then(() => null, (e: unknown) => e as { code?: string }),
      [conversationId, 'x'.repeat(MESSAGE_TEXT_MAX + 1)] as const,
    );
    expect(refused?.code).toBe('message_too_long');
  });
});
