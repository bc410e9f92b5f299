import type { BrowserContext, Page } from 'playwright';
import { describe, expect, it } from 'vitest';
import { LOG_LIMIT } from '../../src/worker/rateLimitedLog';
import { TEST_PIN, useTestServer } from '../support/server';
import { CLIENT_DIR, current, ENGINE_MODES, openTab, sessionStatus, signedInWithFriend, signInAs, useChromium, withoutSharedWorker } from '../support/tabs';

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** Marks the page, so that a reload (which would clear the mark) is seen. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { notReloaded: true }));
const stillMarked = (page: Page) => page.evaluate(() => (window as { notReloaded?: boolean }).notReloaded === true);
const pathOf = (page: Page) => new URL(page.url()).pathname;

/** DevTools' "Clear site data": every kind of storage of the app's origin, deleted under the open tabs. */
async function clearSiteData(context: BrowserContext, page: Page): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.clearDataForOrigin', { origin: new URL(s.url).origin, storageTypes: 'all' });
  await cdp.detach();
}

/** Every console message of the tabs, by text, from the moment they are watched. */
function watchConsole(pages: Page[]): { counts(): Map<string, number>; texts(): string[] } {
  const texts: string[] = [];
  for (const page of pages) page.on('console', (m) => texts.push(m.text()));
  return {
    texts: () => texts,
    counts: () => {
      const counts = new Map<string, number>();
      for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
      return counts;
    },
  };
}

const LANGUAGES = {
  en: { locale: 'en-US', heading: 'Sign in with your phone number', notice: 'You were signed out' },
  sv: { locale: 'sv-SE', heading: 'Logga in med ditt telefonnummer', notice: 'Du har loggats ut' },
} as const;

// The SharedWorker in English, the leader-election fallback in Swedish: both ways of sharing the engine, both languages.
describe.each([
  [...ENGINE_MODES[0], LANGUAGES.en],
  [...ENGINE_MODES[1], LANGUAGES.sv],
] as const)('site data cleared while the app is open (%s)', (_mode, fallback, language) => {
  it('every tab goes to the login screen at once, nothing loops, a reload shows login and signing in again works', async () => {
    const context = await chromium.context({ locale: language.locale });
    if (fallback) await withoutSharedWorker(context);
    const first = await openTab(context, s.url);
    const { me, conversationId } = await signedInWithFriend(first, s.url, 'Cleared');
    const second = await openTab(context, s.url);
    await first.goto(`${s.url}/inbox/${conversationId}`);
    await second.goto(`${s.url}/inbox`);
    const tabs = [first, second];
    for (const tab of tabs) {
      await expect.poll(() => sessionStatus(tab)).toBe('ready');
      await mark(tab);
    }
    const composer = first.getByRole('textbox', { name: language.locale === 'sv-SE' ? 'Meddelande' : 'Message', exact: true });
    await composer.fill('typed before the clear');
    const console = watchConsole(tabs);

    await clearSiteData(context, first);

    // Both tabs at the login screen within a few seconds, without a reload, told why.
    for (const tab of tabs) {
      await expect.poll(() => pathOf(tab), { timeout: 5_000 }).toBe('/login');
      await tab.getByRole('heading', { name: language.heading }).waitFor({ timeout: 5_000 });
      await tab.getByRole('status').filter({ hasText: language.notice }).waitFor();
      expect(await stillMarked(tab)).toBe(true);
      expect(await current(tab, 'session')).toMatchObject({ status: 'unauthenticated', signedOut: { reason: 'dataCleared' } });
    }
    // The engine works on a fresh store: a draft is kept, not refused in IndexedDB's words.
    await first.evaluate((id) => window.engine.setDraft(id, 'kept by the new store'), conversationId);

    // A reload shows the login screen (the token went with the data).
    await second.reload();
    await expect.poll(() => pathOf(second)).toBe('/login');
    await second.getByRole('heading', { name: language.heading }).waitFor();
    expect(await sessionStatus(second)).toBe('unauthenticated');

    // Signing in again works, in every tab, and the chat comes back from the server.
    await signInAs(second, me.phone, TEST_PIN);
    for (const tab of tabs) {
      await expect.poll(() => sessionStatus(tab)).toBe('ready');
      await expect.poll(() => pathOf(tab)).toMatch(/^\/inbox/);
      await expect.poll(async () => (await current(tab, 'conversations')).map((c) => c.conversation.id)).toEqual([conversationId]);
      expect(await current(tab, 'session')).not.toHaveProperty('signedOut');
    }

    // Nothing looped: no message more than a few times, and never IndexedDB's own words.
    const repeated = [...console.counts()].filter(([, n]) => n > LOG_LIMIT);
    expect(repeated).toEqual([]);
    for (const tab of tabs) expect(await tab.locator('body').innerText()).not.toMatch(/IDBDatabase|connection is closing/);
    expect(console.texts().filter((t) => /IDBDatabase|connection is closing/.test(t))).toEqual([]);
  });
});
