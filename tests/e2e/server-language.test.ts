import { describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { nextPhone, useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';

/**
 * Issue 10: with Swedish chosen, the server's own messages show in Swedish. The browser is English, so
 * its own Accept-Language would ask for English: the Swedish comes from the engine sending the language
 * the user chose.
 */

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const pinRequests = async (phone: string) =>
  (await server.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM pin_requests WHERE phone_nr = ${phone}`))!.n;

describe('server texts in the chosen language', () => {
  it('shows the server’s Swedish "Too many PIN requests…" on the login screen', async () => {
    const context = await chromium.context({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.locator('option[value="SE"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Svenska' }).click();
    await page.getByRole('heading', { name: 'Logga in med ditt telefonnummer' }).waitFor();

    const phone = nextPhone();
    await page.getByRole('combobox', { name: 'Land' }).selectOption('SE');
    await page.getByRole('textbox', { name: 'Telefonnummer' }).fill(`0${phone.slice(3, 5)}-${phone.slice(5)}`);
    await page.getByRole('button', { name: 'Skicka kod' }).click();
    await page.getByRole('textbox', { name: 'PIN-siffra 1 av 4' }).waitFor();
    expect(await pinRequests(phone)).toBe(1);

    // Four more codes are sent; the sixth request for the number in 15 minutes is refused (docs/server.md).
    const resend = page.getByRole('button', { name: 'Skicka en ny kod' });
    for (let sent = 2; sent <= 5; sent++) {
      await resend.click();
      await expect.poll(() => pinRequests(phone)).toBe(sent);
    }
    await resend.click();
    const alert = page.getByRole('alert');
    await expect
      .poll(() => alert.textContent())
      .toBe('För många begäranden om PIN-kod för det här numret. Försök igen om 15 minuter.');
    expect(await pinRequests(phone)).toBe(5);
  });
});
