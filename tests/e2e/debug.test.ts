import { rmSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { seriousViolations } from '../support/axe';
import { buildClientInTemp } from '../support/buildClient';
import { nextPhone, startTestServer, type TestServer } from '../support/server';
import { openTab, useChromium } from '../support/tabs';

/**
 * The debug screen of spec §2. Its password is a build variable (VITE_DEBUG_PASSWORD), so this file builds
 * the client twice with the variables it needs: once as a production build without a password (closed),
 * once with one. Vite builds in a second or two.
 */

const PASSWORD = 'sesam öppna dig';
const buildClient = (env: Record<string, string>) => buildClientInTemp('messenger-debug-client-', env);

let closedDir: string;
let lockedDir: string;
let closed: TestServer;
let locked: TestServer;
const chromium = useChromium();

beforeAll(async () => {
  closedDir = buildClient({});
  lockedDir = buildClient({ VITE_DEBUG_PASSWORD: PASSWORD });
  closed = await startTestServer({ clientDir: closedDir });
  locked = await startTestServer({ clientDir: lockedDir });
});
afterAll(async () => {
  await closed?.close();
  await locked?.close();
  for (const dir of [closedDir, lockedDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

async function withContext(body: (context: BrowserContext) => Promise<void>): Promise<void> {
  const context = await chromium.browser.newContext({ locale: 'en-US' });
  try {
    await body(context);
  } finally {
    await context.close();
  }
}

const pinRequests = async (s: TestServer, phone: string): Promise<number> =>
  (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM pin_requests WHERE phone_nr = ${phone}`))!.n;

/** Asks for a PIN through the tab's engine: 'sent', or the message it failed with. */
const requestPin = (page: Page, phone: string): Promise<string> =>
  page.evaluate(
    (p) =>
      window.engine.requestPin(p).then(
        () => 'sent',
        (error: unknown) => (error as { message?: string }).message ?? String(error),
      ),
    phone,
  );

async function unlock(page: Page): Promise<void> {
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('heading', { name: 'API and websocket hosts' }).waitFor();
}

describe('the debug screen', () => {
  it('is closed in a production build without a password, and says so, without asking anyone to sign in', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, closed.url + '/debug');
      await page.getByText('The debug screen is closed in this build.').waitFor();
      expect(new URL(page.url()).pathname).toBe('/debug');
      expect(await page.getByLabel('Password').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Crash the app' }).count()).toBe(0);
    });
  });

  it('asks for the build’s password: a wrong one says "Incorrect password", the right one opens it', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, locked.url + '/debug');
      const field = page.getByLabel('Password');
      await field.fill('guess');
      await page.getByRole('button', { name: 'Unlock' }).click();
      await page.getByText('Incorrect password', { exact: true }).waitFor();
      expect(await field.inputValue()).toBe('');
      expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.getByRole('heading', { name: 'API and websocket hosts' }).count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      await unlock(page);
      // The constants of spec §9 and the build's variables, the password among them but not its value.
      const constants = page.getByRole('table', { name: 'Constants' });
      await constants.getByRole('row', { name: 'BUILD_NUMBER 20251023-0857' }).waitFor();
      await constants.getByRole('row', { name: 'PROTOCOL_VERSION 7' }).waitFor();
      const env = page.getByRole('table', { name: 'Build variables' });
      await env.getByRole('row', { name: 'VITE_DEBUG_PASSWORD (hidden)' }).waitFor();
      await env.getByRole('row', { name: 'MODE production' }).waitFor();
      expect(await page.locator('body').innerText()).not.toContain(PASSWORD);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });

  it('saves custom hosts through the engine, which then calls them; reset goes back to this site', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, locked.url + '/debug');
      await unlock(page);
      // QA has no address in this build: it cannot be chosen.
      expect(await page.getByRole('radio', { name: /^QA/ }).isDisabled()).toBe(true);

      await page.getByRole('radio', { name: 'Custom hosts' }).check();
      const api = page.getByRole('textbox', { name: 'API base URL' });
      const ws = page.getByRole('textbox', { name: 'Websocket base URL' });
      await api.fill('ftp://files.example.org');
      await page.getByRole('button', { name: 'Save hosts' }).click();
      await page.getByText('Enter an address that starts with http:// or https://').waitFor();
      await api.fill(`${locked.url}/elsewhere/`);
      await ws.fill('http://not-a-socket.example.org');
      await page.getByRole('button', { name: 'Save hosts' }).click();
      await page.getByText('Enter an address that starts with ws:// or wss://').waitFor();

      await ws.fill('');
      await page.getByRole('button', { name: 'Save hosts' }).click();
      await page.getByText(`Saved: the app now talks to ${locked.url}/elsewhere.`).waitFor();
      // The engine now sends its calls under /elsewhere, where no API lives: nothing reaches the PIN route.
      const phone = nextPhone();
      expect(await requestPin(page, phone)).not.toBe('sent');
      expect(await pinRequests(locked, phone)).toBe(0);

      await page.getByRole('button', { name: 'Reset to default' }).click();
      await page.getByText('Reset: the app talks to this site again.').waitFor();
      expect(await requestPin(page, phone)).toBe('sent');
      expect(await pinRequests(locked, phone)).toBe(1);
    });
  });

  it('has a crash test whose render error the error boundary catches and shows', async () => {
    await withContext(async (context) => {
      const page = await openTab(context, locked.url + '/debug');
      await unlock(page);
      await page.getByRole('button', { name: 'Crash the app' }).click();
      const caught = page.getByRole('alert').filter({ hasText: 'The error boundary caught an error:' });
      await caught.getByText('Crash test from the debug screen').waitFor();
      // Only the crashed part is replaced; the rest of the screen still works.
      await page.getByRole('heading', { name: 'API and websocket hosts' }).waitFor();
      await caught.getByRole('button', { name: 'Recover' }).click();
      await page.getByRole('button', { name: 'Crash the app' }).waitFor();
    });
  });
});
