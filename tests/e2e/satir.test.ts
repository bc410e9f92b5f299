import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { PARTIES } from '../../src/ui/login/satir/parties';
import { seriousViolations } from '../support/axe';
import { nextPhone, TEST_PIN, useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';

/** Issue 9: the protest page (spec §1) in Chromium against the reference server. */
const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** /satir in a fresh profile; every request the page makes is recorded. */
async function satir(options: { width?: number; reducedMotion?: boolean } = {}) {
  const context = await chromium.context({
    viewport: { width: options.width ?? 1280, height: 900 },
    ...(options.reducedMotion ? { reducedMotion: 'reduce' as const } : {}),
  });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(`${s.url}/satir`);
  await page.getByRole('heading', { name: 'Stop chat control!' }).waitFor();
  return { context, page, requests };
}

const statValue = (page: Page, key: string) => page.locator(`[data-stat="${key}"] dd`).textContent();

describe('the protest page (issue 9)', () => {
  it('keeps the politicians’ sign-in closed, ticks its made-up figures, opens the FAQ by keyboard, and asks nothing of other hosts', async () => {
    const { page, requests } = await satir();
    const politician = page.getByRole('button', { name: 'Sign in as a politician or military officer' });
    expect(await politician.isDisabled()).toBe(true);
    await politician.click({ force: true });
    expect(page.url()).toBe(`${s.url}/satir`);
    await page.getByText('Made-up numbers. This page is satire.').waitFor();

    const before = await statValue(page, 'scanned');
    await expect.poll(() => statValue(page, 'scanned'), { timeout: 5_000 }).not.toBe(before);

    const question = page.getByText('What is chat control?');
    await question.focus();
    await page.keyboard.press('Enter');
    await page.getByText(/An EU proposal that would make messaging services scan/).waitFor();
    expect(await page.locator('details').first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.locator('details').first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator('details').count()).toBeGreaterThanOrEqual(5);

    expect(await seriousViolations(page)).toEqual([]);
    const foreign = requests.filter((url) => !url.startsWith(s.url) && !/^(data|blob):/.test(url));
    expect(foreign).toEqual([]);
  });

  it('moves its ticker, and holds it still for readers who ask for less motion', async () => {
    const moving = await satir();
    const track = (page: Page) => page.getByTestId('satir-ticker-track');
    const x = async (page: Page) => (await track(page).boundingBox())?.x ?? 0;
    const start = await x(moving.page);
    await expect.poll(() => x(moving.page), { timeout: 5_000 }).not.toBe(start);

    const still = await satir({ reducedMotion: true });
    expect(await track(still.page).evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    const held = await x(still.page);
    await still.page.waitForTimeout(1_000);
    expect(await x(still.page)).toBe(held);
  });

  it('opens the contact page of each party chosen, in a new tab on its own domain, without an opener', async () => {
    const { context, page } = await satir();
    // The parties' sites are not reached (tests/support/chromium.ts: no host resolves but loopback): each new
    // tab's navigation request says where it went, and with which referrer.
    const navigations: { url: string; referer: string | undefined }[] = [];
    context.on('request', (request) => {
      if (request.isNavigationRequest() && !request.url().startsWith(s.url)) {
        navigations.push({ url: request.url(), referer: request.headers()['referer'] });
      }
    });
    const select = page.getByRole('combobox', { name: 'Party' });
    for (const party of [PARTIES[0]!, PARTIES[2]!, PARTIES[7]!]) {
      await select.selectOption(party.id);
      const opened = context.waitForEvent('page');
      await page.getByRole('link', { name: new RegExp(`^Open the contact page of ${party.name}`) }).click();
      const tab = await opened;
      await expect.poll(() => navigations.at(-1)?.url).toBe(party.url);
      expect(navigations.at(-1)?.referer).toBeUndefined();
      expect(new URL(party.url).protocol).toBe('https:');
      expect(await tab.evaluate(() => window.opener)).toBeNull();
      await tab.close();
    }
    expect(page.url()).toBe(`${s.url}/satir`);
    expect(context.pages()).toHaveLength(1);
    expect(new Set(PARTIES.map((p) => new URL(p.url).hostname)).size).toBe(8);
  });

  it('fits a 390 px phone without sideways scrolling, and signs a new number up through /satir-nickname to /inbox', async () => {
    const { page } = await satir({ width: 390 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);

    const phone = nextPhone();
    await page.getByRole('combobox', { name: 'Country' }).selectOption('SE');
    await page.getByRole('textbox', { name: 'Phone number' }).fill(`0${phone.slice(3)}`);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.getByRole('textbox', { name: 'PIN digit 1 of 4' }).fill(TEST_PIN[0]!);
    await page.keyboard.type(TEST_PIN.slice(1));
    await page.waitForURL(`${s.url}/satir-nickname`);
    await page.getByRole('heading', { name: 'Stop chat control!' }).waitFor();
    await page.getByRole('textbox', { name: 'Nickname' }).fill('Protestant');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${s.url}/inbox`);
  });

  it('is in Swedish for a Swedish reader', async () => {
    const context = await chromium.context({ locale: 'sv-SE' });
    const page = await context.newPage();
    await page.goto(`${s.url}/satir`);
    await page.getByRole('heading', { name: 'Stoppa chattkontrollen!' }).waitFor();
    await page.getByText('Påhittade siffror. Den här sidan är satir.').waitFor();
    await page.getByRole('combobox', { name: 'Parti' }).waitFor();
  });
});
