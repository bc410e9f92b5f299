import type { Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, current, openTab, sessionStatus, signInAs, signInThrough, useChromium } from '../support/tabs';

/**
 * Sessions on the account page (docs/ui.md "Sessions") against the real server and the production build:
 * one user signed in in two browser profiles; the account page of one lists both, this device marked, and
 * ending the other signs that profile's tab out at once, with the notice saying why.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

const pathOf = (page: Page) => new URL(page.url()).pathname;

const LANGUAGES = {
  en: {
    locale: 'en-US',
    title: 'Sessions',
    thisDevice: 'This device',
    lastActive: 'Last active today at',
    device: 'Chrome on Linux',
    endOthers: 'End all other sessions',
    heading: 'Sign in with your phone number',
    notice: 'You were signed out',
    why: 'Your session ended: it expired, or it was ended on another device.',
  },
  sv: {
    locale: 'sv-SE',
    title: 'Sessioner',
    thisDevice: 'Den här enheten',
    lastActive: 'Senast aktiv idag kl.',
    device: 'Chrome på Linux',
    endOthers: 'Avsluta alla andra sessioner',
    heading: 'Logga in med ditt telefonnummer',
    notice: 'Du har loggats ut',
    why: 'Din session har upphört: den gick ut eller avslutades på en annan enhet.',
  },
} as const;

describe.each([
  ['one session ended by its button', LANGUAGES.en, 'one'],
  ['all other sessions ended', LANGUAGES.sv, 'others'],
] as const)('sessions: %s (%s)', (_name, language, how) => {
  it('lists both with this device marked; ending the other signs that tab out at once with the notice', async () => {
    const laptop = await openTab(await chromium.context({ locale: language.locale }), s.url);
    const { phone } = await signInThrough(laptop, 'Twice');
    const other = await openTab(await chromium.context({ locale: language.locale }), s.url);
    await signInAs(other, phone);
    await other.goto(`${s.url}/inbox`);
    await expect.poll(() => sessionStatus(other)).toBe('ready');
    await expect.poll(() => current(other, 'connection'), { timeout: 10_000 }).toBe('online');

    await laptop.goto(`${s.url}/profile`);
    const section = laptop.getByTestId('sessions');
    await section.getByRole('heading', { name: language.title }).waitFor();
    const rows = section.getByTestId('session-row');
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    const texts = await rows.allInnerTexts();
    // This one first; both are this Chromium on Linux.
    expect(texts[0]).toContain(language.device);
    expect(texts[0]).toContain(language.thisDevice);
    expect(texts[1]).toContain(language.device);
    expect(texts[1]).toContain(language.lastActive);
    expect(texts[1]).not.toContain(language.thisDevice);

    if (how === 'one') {
      await rows.nth(1).getByRole('button', { name: `End the session on ${language.device}` }).click();
      const dialog = laptop.getByRole('dialog', { name: 'End this session?' });
      await dialog.getByRole('button', { name: 'End', exact: true }).click();
    } else {
      await section.getByRole('button', { name: language.endOthers }).click();
      const dialog = laptop.getByRole('dialog', { name: 'Avsluta alla andra sessioner?' });
      await dialog.getByRole('button', { name: 'Avsluta alla', exact: true }).click();
    }

    // The other profile's tab, which asks nothing meanwhile: at the login screen at once, told why.
    await expect.poll(() => pathOf(other), { timeout: 5_000 }).toBe('/login');
    await other.getByRole('heading', { name: language.heading }).waitFor();
    const notice = other.getByRole('status').filter({ hasText: language.notice });
    await notice.waitFor();
    expect(await notice.innerText()).toContain(language.why);
    expect(await current(other, 'session')).toMatchObject({ status: 'unauthenticated', signedOut: { reason: 'sessionEnded', phone } });

    // This one stays, alone in the list now.
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain(language.thisDevice);
    expect(await section.getByRole('button', { name: language.endOthers }).count()).toBe(0);
    expect(await sessionStatus(laptop)).toBe('ready');
  });
});
