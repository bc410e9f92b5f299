import { describe, expect, it } from 'vitest';
import { CLIENT_DIR, useChromium } from '../support/tabs';
import { signUp, useTestServer } from '../support/server';

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

describe('the served app', () => {
  it('loads in Chromium without console errors, on / and on a deep link', async () => {
    const context = await chromium.browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    // Leaving a page while it still loads aborts its requests (the engine's worker script among them): not an error.
    page.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`requestfailed: ${r.url()}`);
    });

    // Signed out, the main screen and a deep link into it both send the user to the login screen (spec §2).
    await page.goto(server.url + '/');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await page.goto(server.url + '/inbox/42');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('speaks Swedish to a Swedish browser', async () => {
    const context = await chromium.browser.newContext({ locale: 'sv-SE' });
    const page = await context.newPage();
    await page.goto(server.url + '/');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    expect(await page.getAttribute('html', 'lang')).toBe('sv');
    // The login screen itself is in Swedish, not only the document's language attribute.
    await page.getByRole('heading', { name: 'Logga in med ditt telefonnummer' }).waitFor();
    await page.getByRole('button', { name: 'Skicka kod' }).waitFor();
    await context.close();
  });

  it('answers unknown API paths with a JSON 404, not the app', async () => {
    const anonymous = await fetch(server.url + '/v2/nothing-here');
    expect(anonymous.status).toBe(401);
    const { token } = await signUp(server.url, 'Explorer');
    const response = await fetch(server.url + '/v2/nothing-here', { headers: { 'Auth-Token': token } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ success: false, status: 404, message: 'Not found' });
  });
});
