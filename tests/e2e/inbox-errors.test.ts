import type { Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser';
import { openTab, RestartableServer, serveClientOnly, signInThrough } from '../support/tabs';

let r: RestartableServer;
let browser: Browser;

beforeAll(async () => {
  r = await RestartableServer.start();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await r?.dispose();
});

describe('the chats list without its server', () => {
  it('shows the error with a retry when nothing is cached, and the retry loads /inbox again', async () => {
    const context = await browser.newContext();
    try {
      const page = await openTab(context, r.url);
      await signInThrough(page, 'Lonely');
      await page.waitForURL(/\/inbox$/);
      await expect.poll(() => page.getByText('No conversations yet').isVisible()).toBe(true);

      // The app still loads (from a cache or a CDN), but the API is gone.
      await r.stop();
      const clientOnly = await serveClientOnly(r.port);
      try {
        await page.goto(`${r.url}/inbox`);
        const alert = page.getByRole('alert');
        await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toMatch(/^Failed to load conversationsFailed to fetch conversations listRetry$/);
        expect(await page.getByText('No conversations yet').count()).toBe(0);
      } finally {
        await clientOnly.close();
      }
      await r.restart();
      await page.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => page.getByText('No conversations yet').isVisible(), { timeout: 20_000 }).toBe(true);
      expect(new URL(page.url()).pathname).toBe('/inbox');
      expect(await page.getByRole('alert').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
