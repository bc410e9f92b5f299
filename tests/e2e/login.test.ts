import type { BrowserContext, Locator, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { seriousViolations } from '../support/axe';
import { nextPhone, useTestServer, TEST_PIN } from '../support/server';
import { CLIENT_DIR, current, sessionStatus, signInThrough, useChromium } from '../support/tabs';

/** The login screen of spec §2, §4 and §5, driven through its real form against the reference server. */

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const path = (page: Page) => new URL(page.url()).pathname;

/** Runs `body` in a fresh browser profile of the given locale, closed afterwards whatever happens. */
async function withContext(locale: string, body: (context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await chromium.browser.newContext({ locale });
  try {
    await body(context);
  } finally {
    await context.close();
  }
}

/** Opens the login screen and waits until the countries are in its selector. */
async function openLogin(context: BrowserContext, route = '/login'): Promise<Page> {
  const page = await context.newPage();
  await page.goto(server.url + route);
  await page.locator('option[value="SE"]').waitFor({ state: 'attached' });
  return page;
}

const digit = (page: Page, n: number) => page.getByRole('textbox', { name: `PIN digit ${n} of 4` });
const pinValues = (page: Page) =>
  page.$$eval('input[aria-label^="PIN digit"], input[aria-label^="PIN-siffra"]', (boxes) =>
    boxes.map((b) => (b as HTMLInputElement).value),
  );
const isFocused = (locator: Locator) => locator.evaluate((el) => el === document.activeElement);
const storedLoginState = (page: Page) => page.evaluate(() => localStorage.getItem('loginState'));

/** Fills the phone step with a new Swedish number (typed the national way) and waits for the PIN boxes. */
async function toPinStep(page: Page): Promise<string> {
  const phone = nextPhone();
  await page.getByRole('combobox', { name: 'Country' }).selectOption('SE');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(`0${phone.slice(3, 5)}-${phone.slice(5)}`);
  await page.getByRole('button', { name: 'Send code' }).click();
  await digit(page, 1).waitFor();
  return phone;
}

/** Pastes text into a box the way a browser does: a paste event carrying the clipboard's text. */
async function paste(box: Locator, text: string): Promise<void> {
  await box.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

describe('signing up through the form', () => {
  it('takes the country from a number typed with its prefix in a browser of no supported country', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      const country = page.getByRole('combobox', { name: 'Country' });
      expect(await country.inputValue()).toBe('');
      const phone = nextPhone();
      await page.getByRole('textbox', { name: 'Phone number' }).fill(phone);
      // The selector follows the prefix as it is typed, and the PIN is asked for that country's number.
      await expect.poll(() => country.inputValue()).toBe('SE');
      await page.getByRole('button', { name: 'Send code' }).click();
      await digit(page, 1).waitFor();
      await page.getByText(new RegExp(`^We sent a four-digit code to \\+46\\s${phone.slice(3, 5)}\\s`)).waitFor();
    });
  });

  it('shows the message of each bad input, then lands on /inbox', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      const send = page.getByRole('button', { name: 'Send code' });
      const phoneField = page.getByRole('textbox', { name: 'Phone number' });

      // An English browser has no country of its own: none is chosen yet (spec §5).
      await phoneField.fill('0701234561');
      await send.click();
      await page.getByText('Please select a country', { exact: true }).waitFor();

      await page.getByRole('combobox', { name: 'Country' }).selectOption('SE');
      await phoneField.fill('070 12');
      await send.click();
      await page.getByText('Please enter a valid phone number, like +46 70 123 45 61', { exact: true }).waitFor();
      expect(await isFocused(phoneField)).toBe(true);

      // Indonesia's example follows the country.
      await page.getByRole('combobox', { name: 'Country' }).selectOption('ID');
      await send.click();
      await page.getByText('Please enter a valid phone number, like +62 812-3456-7890', { exact: true }).waitFor();

      const phone = await toPinStep(page);
      // The number as the country writes it (\s: its spaces do not break).
      await page.getByText(new RegExp(`^We sent a four-digit code to \\+46\\s${phone.slice(3, 5)}\\s`)).waitFor();
      // The step focuses its first box in an effect, after it shows.
      await expect.poll(() => isFocused(digit(page, 1))).toBe(true);

      // Any PIN but the server's is wrong: the message, empty boxes, the focus back on the first.
      const wrong = [...TEST_PIN].map((d) => String((Number(d) + 5) % 10)).join('');
      await page.keyboard.type(wrong);
      await page.getByText('Invalid PIN code. Please try again.', { exact: true }).waitFor();
      expect(await pinValues(page)).toEqual(['', '', '', '']);
      expect(await isFocused(digit(page, 1))).toBe(true);

      await page.keyboard.type(TEST_PIN);
      await expect.poll(() => path(page)).toBe('/nickname');

      const nickname = page.getByRole('textbox', { name: 'Nickname' });
      const next = page.getByRole('button', { name: 'Continue' });
      await next.click();
      await page.getByText('Please enter a nickname', { exact: true }).waitFor();
      await nickname.fill('   ');
      await next.click();
      await page.getByText('Please enter a nickname', { exact: true }).waitFor();
      expect(await sessionStatus(page)).toBe('needsNickname');

      await nickname.fill('  Lovisa  ');
      await next.click();
      await expect.poll(() => path(page)).toBe('/inbox');
      const session = await current(page, 'session');
      expect(session).toMatchObject({ status: 'ready', nickname: 'Lovisa', phone });
      // The login state is kept until success, and no longer.
      expect(await storedLoginState(page)).toBeNull();
    });
  });

  it('fills the boxes from a paste and signs in with the pasted PIN', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      await toPinStep(page);
      await paste(digit(page, 1), '3 1');
      expect(await pinValues(page)).toEqual(['3', '1', '', '']);
      expect(await isFocused(digit(page, 3))).toBe(true);
      // Four digits fill every box from the first, whichever box has the focus, and submit.
      await paste(digit(page, 3), `PIN: ${TEST_PIN.split('').join('-')}`);
      await expect.poll(() => path(page)).toBe('/nickname');
      expect(await sessionStatus(page)).toBe('needsNickname');
    });
  });

  it('moves forward on a digit, back on Backspace, and ignores what is not a digit', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      await toPinStep(page);
      await page.keyboard.type('7');
      expect(await isFocused(digit(page, 2))).toBe(true);
      await page.keyboard.type('x');
      await page.keyboard.type(' ');
      expect(await pinValues(page)).toEqual(['7', '', '', '']);
      expect(await isFocused(digit(page, 2))).toBe(true);
      await page.keyboard.type('5');
      expect(await isFocused(digit(page, 3))).toBe(true);

      await page.keyboard.press('Backspace');
      expect(await pinValues(page)).toEqual(['7', '', '', '']);
      expect(await isFocused(digit(page, 2))).toBe(true);
      await page.keyboard.press('Backspace');
      expect(await pinValues(page)).toEqual(['', '', '', '']);
      expect(await isFocused(digit(page, 1))).toBe(true);
    });
  });

  it('comes back on the PIN step after a reload; back to phone clears the PIN', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      const phone = await toPinStep(page);
      await page.keyboard.type('42');
      await page.reload();
      await digit(page, 1).waitFor();
      expect(await pinValues(page)).toEqual(['4', '2', '', '']);
      await expect.poll(() => isFocused(digit(page, 3))).toBe(true);

      await page.getByRole('button', { name: 'Change phone number' }).click();
      const phoneField = page.getByRole('textbox', { name: 'Phone number' });
      await phoneField.waitFor();
      expect(await phoneField.inputValue()).toBe(phone);
      await expect.poll(() => isFocused(phoneField)).toBe(true);
      expect(JSON.parse((await storedLoginState(page)) ?? '{}')).toMatchObject({ step: 'phone', pinCode: '' });

      await page.getByRole('button', { name: 'Send code' }).click();
      await digit(page, 1).waitFor();
      expect(await pinValues(page)).toEqual(['', '', '', '']);
      await page.keyboard.type(TEST_PIN);
      await expect.poll(() => path(page)).toBe('/nickname');
    });
  });
});

describe('where the session sends the user (spec §2)', () => {
  it('sends a signed-in user from /login to /inbox', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      await signInThrough(page, 'Already');
      await page.goto(server.url + '/login');
      await expect.poll(() => path(page)).toBe('/inbox');
      await page.goto(server.url + '/satir');
      await expect.poll(() => path(page)).toBe('/inbox');
    });
  });

  it('keeps a user without a nickname on the nickname step', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      const phone = nextPhone();
      await page.evaluate(
        async ([p, pin]) => {
          await window.engine.requestPin(p);
          await window.engine.confirmPin(p, pin);
        },
        [phone, TEST_PIN] as const,
      );
      await page.goto(server.url + '/inbox');
      await expect.poll(() => path(page)).toBe('/nickname');
      await page.getByRole('textbox', { name: 'Nickname' }).waitFor();
      await page.goto(server.url + '/login');
      await expect.poll(() => path(page)).toBe('/nickname');
    });
  });

  it('runs the same flow on the protest page, in Swedish, ending on its nickname route', async () => {
    await withContext('sv-SE', async (context) => {
      const page = await openLogin(context, '/satir');
      await page.getByRole('heading', { level: 1, name: 'Stoppa chattkontrollen!' }).waitFor();
      // A Swedish browser starts with Sweden chosen.
      expect(await page.getByRole('combobox', { name: 'Land' }).inputValue()).toBe('SE');
      await page.getByRole('textbox', { name: 'Telefonnummer' }).fill(nextPhone());
      await page.getByRole('button', { name: 'Skicka kod' }).click();
      await page.getByRole('textbox', { name: 'PIN-siffra 1 av 4' }).waitFor();
      await page.keyboard.type(TEST_PIN);
      await expect.poll(() => path(page)).toBe('/satir-nickname');
      await page.getByRole('textbox', { name: 'Smeknamn' }).fill('Greta');
      await page.getByRole('button', { name: 'Fortsätt' }).click();
      await expect.poll(() => path(page)).toBe('/inbox');
    });
  });
});

describe('signed out by the server (docs/ui.md "Signed out")', () => {
  it.each([
    ['en-US', 'You were signed out', 'Your session ended', 'Phone number', 'Country'],
    ['sv-SE', 'Du har loggats ut', 'Din session har upphört', 'Telefonnummer', 'Land'],
  ])('in %s says why and keeps the number, and a logout says nothing', async (locale, title, why, number, countryLabel) => {
    await withContext(locale, async (context) => {
      const page = await openLogin(context);
      const me = await signInThrough(page, 'Utloggad');
      await expect.poll(() => path(page)).toBe('/inbox');

      // The token stops working (it expired, or was ended elsewhere): the next call is answered 401.
      await server.server.ctx.db.run(sql`DELETE FROM tokens WHERE user_id = ${me.userId}`);
      await page.evaluate(() => window.engine.refreshConversations().catch(() => undefined));
      await expect.poll(() => path(page)).toBe('/login');
      await page.getByRole('status').filter({ hasText: title }).waitFor();
      await page.getByText(why, { exact: false }).waitFor();
      await expect.poll(() => page.getByRole('textbox', { name: number }).inputValue()).toBe(me.phone);
      await expect.poll(() => page.getByRole('combobox', { name: countryLabel }).inputValue()).toBe('SE');

      // Signing in again with the number given back ends the notice; a logout of one's own brings none.
      await page.evaluate(
        async ([p, pin]) => {
          await window.engine.requestPin(p);
          await window.engine.confirmPin(p, pin);
        },
        [me.phone, TEST_PIN] as const,
      );
      await expect.poll(() => path(page)).toBe('/inbox');
      await page.evaluate(() => window.engine.logout());
      await expect.poll(() => path(page)).toBe('/login');
      await page.getByRole('textbox', { name: number }).waitFor();
      expect(await page.getByText(title).count()).toBe(0);
    });
  });
});

describe('language', () => {
  it('speaks Swedish to a Swedish browser, and the switch changes the language for good', async () => {
    await withContext('sv-SE', async (context) => {
      const page = await openLogin(context);
      await page.getByRole('heading', { name: 'Logga in med ditt telefonnummer' }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('sv');
      await page.getByRole('textbox', { name: 'Telefonnummer' }).fill('12');
      await page.getByRole('button', { name: 'Skicka kod' }).click();
      await page.getByText('Ange ett giltigt telefonnummer, till exempel +46 70 123 45 61', { exact: true }).waitFor();

      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Sign in with your phone number' }).waitFor();
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.getByRole('button', { name: 'English' }).getAttribute('aria-pressed')).toBe('true');
      expect(await current(page, 'language')).toBe('en');

      // The engine keeps the choice: a reload of a Swedish browser stays English.
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in with your phone number' }).waitFor();
      await page.getByRole('button', { name: 'Svenska' }).click();
      await page.getByRole('heading', { name: 'Logga in med ditt telefonnummer' }).waitFor();
    });
  });
});

describe('accessibility', () => {
  /** Presses Tab from the top of the page and checks that exactly these controls take the focus, in order. */
  async function tabsThrough(page: Page, controls: Locator[]): Promise<void> {
    // Start from the top of the document, as a fresh page does.
    await page.evaluate(() => {
      document.body.tabIndex = -1;
      document.body.focus();
      document.body.removeAttribute('tabindex');
    });
    for (const control of controls) {
      await page.keyboard.press('Tab');
      expect(await isFocused(control), await control.evaluate((el) => el.outerHTML)).toBe(true);
    }
    // Nothing else on the page takes the focus (each stop above was found by its role and name).
    await page.keyboard.press('Tab');
    const extra = await page.evaluate(() => {
      const el = document.activeElement;
      return el && el !== document.body && document.body.contains(el) ? el.outerHTML : null;
    });
    expect(extra).toBeNull();
  }

  const language = (page: Page) => [
    page.getByRole('button', { name: 'English' }),
    page.getByRole('button', { name: 'Svenska' }),
  ];

  it('reaches every control by Tab, each with a name, and axe finds nothing serious on any step', async () => {
    await withContext('en-US', async (context) => {
      const page = await openLogin(context);
      await tabsThrough(page, [
        page.getByRole('combobox', { name: 'Country' }),
        page.getByRole('textbox', { name: 'Phone number' }),
        page.getByRole('button', { name: 'Send code' }),
        ...language(page),
      ]);
      await page.getByRole('button', { name: 'Send code' }).click();
      await page.getByText('Please select a country', { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      await toPinStep(page);
      await tabsThrough(page, [
        digit(page, 1),
        digit(page, 2),
        digit(page, 3),
        digit(page, 4),
        page.getByRole('button', { name: 'Change phone number' }),
        page.getByRole('button', { name: 'Send a new code' }),
        ...language(page),
      ]);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: 'Send a new code' }).click();
      await page.getByText(/^A new code was sent to \+46/).waitFor();
      await digit(page, 1).click();
      await page.keyboard.type(TEST_PIN);
      await expect.poll(() => path(page)).toBe('/nickname');
      await page.getByRole('textbox', { name: 'Nickname' }).waitFor();
      await tabsThrough(page, [
        page.getByRole('textbox', { name: 'Nickname' }),
        page.getByRole('button', { name: 'Continue' }),
        ...language(page),
      ]);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByText('Please enter a nickname', { exact: true }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
});
