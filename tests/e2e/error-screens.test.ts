import type { BrowserContextOptions, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '../../src/protocol/api';
import { call, useTestServer } from '../support/server';
import { CLIENT_DIR, signedInPerson, useChromium } from '../support/tabs';
import { createGroup } from './chat-settings-support';

/**
 * Issue 20, "a failure stays small": a row that fails to render shows a translated placeholder while the rest
 * of the chat works; a route or a pane that fails shows our own error screen (translated, Reload, Back to
 * chats), never the router's built-in one.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

// Playwright's routing does not see what a service worker answers: these tests keep it out of the way.
const contextOptions = (locale = 'en-US'): BrowserContextOptions => ({
  viewport: { width: 1300, height: 850 },
  locale,
  serviceWorkers: 'block',
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Makes the rows that show the message of `createdAtMs` fail to render: the row's time tooltip is the one
 * place that formats a date with `dateStyle: 'full'`, and that formatting throws for this one instant.
 */
async function breakRowsAt(page: Page, createdAtMs: number): Promise<void> {
  await page.addInitScript((target) => {
    const descriptor = Object.getOwnPropertyDescriptor(Intl.DateTimeFormat.prototype, 'format');
    const get = descriptor?.get;
    if (!get) return;
    Object.defineProperty(Intl.DateTimeFormat.prototype, 'format', {
      configurable: true,
      get(this: Intl.DateTimeFormat) {
        const format = get.call(this) as (date?: Date | number) => string;
        const full = this.resolvedOptions().dateStyle === 'full';
        return (date?: Date | number) => {
          if (full && date !== undefined && Number(date) === target) throw new Error('forced row failure (test)');
          return format(date);
        };
      },
    });
  }, createdAtMs);
}

describe('error screens', () => {
  it('shows a placeholder for the one row that fails, and the rest of the chat keeps working', async () => {
    const ann = await signedInPerson(chromium, s, 'Ann', { context: contextOptions() });
    const bo = await signedInPerson(chromium, s, 'Bo', { context: contextOptions() });
    const errors: string[] = [];
    bo.page.on('pageerror', (error) => errors.push(String(error)));
    const groupId = await createGroup(s, ann, 'Row failures', [bo]);
    const send = (text: string) =>
      call<MessageAnswer>(s.url, 'POST', `/v2/conversations/${groupId}/messages`, { token: ann.user.token, json: { client_id: 1, message: text } });
    await send('Before the broken one');
    await sleep(1_100);
    const broken = (await send('This one breaks')).data.message;
    await sleep(1_100);
    await send('After the broken one');

    await breakRowsAt(bo.page, Number(broken.created_at) * 1000);
    await bo.page.goto(`${s.url}/inbox/${groupId}`);
    const log = bo.page.getByRole('log');
    await expect.poll(() => log.getByText('After the broken one').count()).toBe(1);
    expect(await log.getByText('Before the broken one').count()).toBe(1);
    expect(await log.getByText('This one breaks').count()).toBe(0);
    expect(await log.getByText("This message can't be shown").count()).toBe(1);

    // The chat goes on: a message typed now is sent and shown, and one that arrives is shown.
    const textbox = bo.page.getByRole('textbox', { name: 'Message', exact: true });
    await textbox.fill('Still working');
    await textbox.press('Enter');
    await expect.poll(() => log.getByText('Still working').count()).toBe(1);
    await send('And arriving');
    await expect.poll(() => log.getByText('And arriving').count()).toBe(1);
    expect(await bo.page.getByText('Something went wrong').count()).toBe(0);
    // React logs what a boundary caught; nothing reached the page uncaught.
    expect(errors).toEqual([]);
  });

  for (const [locale, texts] of [
    ['en-US', { title: 'Something went wrong', reload: 'Reload', back: 'Back to chats' }],
    ['sv-SE', { title: 'Något gick fel', reload: 'Ladda om', back: 'Tillbaka till chattarna' }],
  ] as const) {
    it(`shows our error screen for a route that fails, in ${locale}`, async () => {
      const context = await chromium.context(contextOptions(locale));
      const page = await context.newPage();
      // The debug screen's chunk cannot be fetched (a deploy removed it, say): the route fails to render.
      await page.route('**/assets/debug-*.js', (route) => route.abort());
      await page.goto(`${s.url}/debug`);
      await expect.poll(() => page.getByRole('heading', { name: texts.title }).count(), { timeout: 20_000 }).toBe(1);
      expect(await page.getByRole('button', { name: texts.reload }).count()).toBe(1);
      expect(await page.getByRole('link', { name: texts.back }).count()).toBe(1);
      // The router's own screen never shows.
      expect(await page.getByText('Show Error').count()).toBe(0);
    });
  }

  it('shows the error screen in the pane that fails, beside a chats list that keeps working, and leads back', async () => {
    const ann = await signedInPerson(chromium, s, 'Ann', { context: contextOptions('sv-SE') });
    const bo = await signedInPerson(chromium, s, 'Bo', { context: contextOptions() });
    const groupId = await createGroup(s, ann, 'Rutan', [bo]);
    await ann.page.evaluate(() => window.engine.setLanguage('sv'));
    // The chat view's chunk cannot be fetched: its pane fails, the chats list beside it does not.
    await ann.page.route('**/assets/chat-*.js', (route) => route.abort());
    await ann.page.goto(`${s.url}/inbox/${groupId}`);
    await expect.poll(() => ann.page.getByRole('heading', { name: 'Något gick fel' }).count(), { timeout: 20_000 }).toBe(1);
    expect(await ann.page.getByText('Show Error').count()).toBe(0);
    const search = ann.page.getByRole('searchbox', { name: 'Sök chattar' });
    expect(await search.count()).toBe(1);
    await search.fill('Rut');
    await expect.poll(() => ann.page.getByRole('link', { name: /Rutan/ }).count()).toBeGreaterThan(0);

    await ann.page.unroute('**/assets/chat-*.js');
    await ann.page.getByRole('link', { name: 'Tillbaka till chattarna' }).click();
    await expect.poll(() => new URL(ann.page.url()).pathname).toBe('/inbox');
    await expect.poll(() => ann.page.getByRole('heading', { name: 'Något gick fel' }).count()).toBe(0);
  });
});
