import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, current, openTab, signInThrough, useChromium } from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const switchState = (page: Page, name: string) => page.getByRole('switch', { name }).getAttribute('aria-checked');
const path = (page: Page) => new URL(page.url()).pathname;

describe('settings', () => {
  it('moves between the settings views with the URL following', async () => {
    const context = await chromium.browser.newContext();
    try {
      const page = await openTab(context, s.url);
      await signInThrough(page, 'Walker');
      await page.waitForURL(/\/inbox$/);
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.waitForURL(/\/settings$/);
      // The URL changes before the router renders the new screen.
      await expect.poll(() => page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
      await page.getByRole('link', { name: /^Controls/ }).click();
      await page.waitForURL(/\/settings\/controls$/);
      await page.getByRole('link', { name: 'Back' }).click();
      await page.waitForURL(/\/settings$/);
      await page.getByRole('link', { name: /^Help/ }).click();
      await page.waitForURL(/\/settings\/help$/);
      await page.getByText('How do I sign in?').click();
      await expect.poll(() => page.getByText('Enter your mobile number').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: /@/ }).getAttribute('href')).toMatch(/^mailto:/);
      await page.getByRole('link', { name: 'Back' }).click();
      await page.getByRole('link', { name: /^Account/ }).click();
      await page.waitForURL(/\/profile$/);
      await expect.poll(() => page.getByText('Walker').isVisible()).toBe(true);
      expect(await page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
      await page.getByRole('link', { name: 'Chats' }).click();
      await page.waitForURL(/\/inbox$/);
      // The chats list drawn (its empty state), not the screen the router is leaving.
      await page.getByText('No conversations yet').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps each toggle in the engine, shown in every tab and after a reload; notifications off turns preview and sound off', async () => {
    const context = await chromium.browser.newContext();
    try {
      const a = await openTab(context, s.url);
      await signInThrough(a, 'Toggler');
      const b = await openTab(context, `${s.url}/settings/controls`);
      await a.goto(`${s.url}/settings/controls`);
      await expect.poll(() => switchState(a, 'Enter to send')).toBe('true');
      await a.getByRole('switch', { name: 'Enter to send' }).click();
      await expect.poll(() => switchState(a, 'Enter to send')).toBe('false');
      await expect.poll(() => switchState(b, 'Enter to send')).toBe('false');
      expect((await current(a, 'settings')).enterToSend).toBe(false);
      await a.reload();
      await expect.poll(() => switchState(a, 'Enter to send')).toBe('false');

      await a.goto(`${s.url}/settings/notifications`);
      await b.goto(`${s.url}/settings/notifications`);
      for (const name of ['Enable notifications', 'Show message preview', 'Incoming message sound']) {
        await expect.poll(() => switchState(a, name)).toBe('true');
      }
      await a.getByRole('switch', { name: 'Incoming message sound' }).click();
      await expect.poll(() => switchState(b, 'Incoming message sound')).toBe('false');
      await a.getByRole('switch', { name: 'Incoming message sound' }).click();
      await expect.poll(() => switchState(b, 'Incoming message sound')).toBe('true');

      await a.getByRole('switch', { name: 'Enable notifications' }).click();
      for (const page of [a, b]) {
        for (const name of ['Enable notifications', 'Show message preview', 'Incoming message sound']) {
          await expect.poll(() => switchState(page, name)).toBe('false');
        }
        expect(await page.getByRole('switch', { name: 'Show message preview' }).isDisabled()).toBe(true);
      }
      expect(await current(b, 'settings')).toEqual({
        enterToSend: false,
        notificationsEnable: false,
        notificationsShowPreview: false,
        incomingMessagesSound: false,
      });
    } finally {
      await context.close();
    }
  });

  it('the notifications switch round trip: back on gives back the preview and sound the user had, in every tab and after a reload', async () => {
    const context = await chromium.browser.newContext();
    try {
      const a = await openTab(context, s.url);
      await signInThrough(a, 'Roundtrip');
      await a.goto(`${s.url}/settings/notifications`);
      const b = await openTab(context, `${s.url}/settings/notifications`);
      await a.getByRole('switch', { name: 'Show message preview' }).click();
      await expect.poll(() => switchState(b, 'Show message preview')).toBe('false');

      await a.getByRole('switch', { name: 'Enable notifications' }).click();
      await expect.poll(() => switchState(b, 'Incoming message sound')).toBe('false');
      expect(await switchState(b, 'Show message preview')).toBe('false');
      // Off survives a reload, and so does what coming back on gives back.
      await a.reload();
      await expect.poll(() => switchState(a, 'Enable notifications')).toBe('false');
      expect(await a.getByText('Turning notifications on brings them back as they were.').isVisible()).toBe(true);

      await a.getByRole('switch', { name: 'Enable notifications' }).click();
      for (const page of [a, b]) {
        await expect.poll(() => switchState(page, 'Enable notifications')).toBe('true');
        expect(await switchState(page, 'Show message preview')).toBe('false');
        expect(await switchState(page, 'Incoming message sound')).toBe('true');
      }
      expect(await a.getByRole('status').filter({ hasText: 'Notifications are on again' }).textContent()).toBe(
        'Notifications are on again: message preview off, sound on.',
      );
      expect(await current(b, 'settings')).toEqual({
        enterToSend: true,
        notificationsEnable: true,
        notificationsShowPreview: false,
        incomingMessagesSound: true,
      });
      expect(await seriousViolations(a)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('switches the language to Swedish in every tab', async () => {
    const context = await chromium.browser.newContext({ locale: 'en-US' });
    try {
      const a = await openTab(context, s.url);
      await signInThrough(a, 'Polyglot');
      const b = await openTab(context, `${s.url}/inbox`);
      await a.goto(`${s.url}/settings`);
      await a.getByLabel('Language').selectOption('sv');
      await expect.poll(() => a.getByRole('heading', { name: 'Inställningar' }).isVisible()).toBe(true);
      await expect.poll(() => b.getByRole('heading', { name: 'Chattar' }).isVisible()).toBe(true);
      expect(await b.getByRole('searchbox', { name: 'Sök chattar' }).isVisible()).toBe(true);
      expect(await b.getByRole('link', { name: 'Inställningar' }).isVisible()).toBe(true);
      expect(await a.evaluate(() => document.documentElement.lang)).toBe('sv');
      expect(await current(a, 'language')).toBe('sv');
      await a.getByLabel('Språk').selectOption('en');
      await expect.poll(() => b.getByRole('heading', { name: 'Chats' }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('logs out only after confirming; Escape and a click outside cancel', async () => {
    const context = await chromium.browser.newContext({ viewport: { width: 1200, height: 800 } });
    try {
      const page = await openTab(context, s.url);
      await signInThrough(page, 'Leaver');
      await page.goto(`${s.url}/profile`);
      const dialog = page.getByRole('dialog', { name: 'Log out?' });
      await page.getByRole('button', { name: 'Log out' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);

      await page.getByRole('button', { name: 'Log out' }).click();
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await page.mouse.click(10, 790);
      await expect.poll(() => dialog.count()).toBe(0);
      expect(path(page)).toBe('/profile');
      expect((await current(page, 'session')).status).toBe('ready');

      await page.getByRole('button', { name: 'Log out' }).click();
      await dialog.getByRole('button', { name: 'Log out' }).click();
      await page.waitForURL(/\/login$/);
      expect((await current(page, 'session')).status).toBe('unauthenticated');
    } finally {
      await context.close();
    }
  });
});
