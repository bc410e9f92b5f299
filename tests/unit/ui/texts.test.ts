import { afterEach, describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../../src/ui/i18n';
import { textGroupOf } from '../../../src/ui/textGroups';
import { hasTexts, loadTexts, localeChunks, textsReady } from '../../../src/ui/texts';

type I18n = Awaited<ReturnType<typeof createI18n>>;

/** The areas a namespace (a group of texts) holds in a language: its top-level keys. */
const areasIn = (i18n: I18n, language: string, group: string) => Object.keys(i18n.getResourceBundle(language, group) ?? {}).sort();

afterEach(() => {
  vi.restoreAllMocks();
});

describe('texts loaded on demand as i18next namespaces (issues 11 and 22)', () => {
  it('starts the app with the login namespace of one language only', async () => {
    const i18n = await createI18n('en', ['login']);
    expect(i18n.options.ns).toEqual(['login']);
    expect(areasIn(i18n, 'en', 'login')).toEqual(['common', 'errors', 'login']);
    expect(i18n.hasResourceBundle('en', 'app')).toBe(false);
    expect(i18n.hasResourceBundle('sv', 'login')).toBe(false);
    expect(i18n.t('login.phone.title')).not.toBe('login.phone.title');
    expect(i18n.exists('chat.loading')).toBe(false);
  });

  it('adds the app namespace with loadNamespaces when a screen behind sign-in asks for it', async () => {
    const i18n = await createI18n('sv', ['login']);
    const loadNamespaces = vi.spyOn(i18n, 'loadNamespaces');
    expect(hasTexts(i18n, 'login')).toBe(true);
    expect(hasTexts(i18n, 'app')).toBe(false);
    await textsReady(i18n, 'app');
    expect(loadNamespaces).toHaveBeenCalledWith('app');
    expect(hasTexts(i18n, 'app')).toBe(true);
    expect(areasIn(i18n, 'sv', 'app').map(textGroupOf)).not.toContain('login');
    expect(areasIn(i18n, 'sv', 'app')).toContain('chat');
    // A key keeps its area and names no namespace: one not in the login group is found in the app group.
    expect(i18n.t('chat.loading')).not.toBe('chat.loading');
    expect(i18n.hasResourceBundle('en', 'login')).toBe(false);
  });

  it('loads every namespace the instance uses into a language switched to', async () => {
    const i18n = await createI18n('en', ['login']);
    await textsReady(i18n, 'app');
    await loadTexts(i18n, 'sv');
    expect(areasIn(i18n, 'sv', 'login')).toEqual(areasIn(i18n, 'en', 'login'));
    expect(areasIn(i18n, 'sv', 'app')).toEqual(areasIn(i18n, 'en', 'app'));
  });

  it('loads a namespace asked for during a switch in the language being switched to as well', async () => {
    const i18n = await createI18n('en', ['login']);
    const switching = loadTexts(i18n, 'sv');
    await textsReady(i18n, 'app');
    await switching;
    expect(hasTexts(i18n, 'app')).toBe(true);
    expect(areasIn(i18n, 'sv', 'app')).toContain('chat');
    expect(areasIn(i18n, 'en', 'app')).toContain('chat');
  });

  it('rejects when a chunk cannot be fetched, and fetches it again on the next try (i18next alone would not)', async () => {
    const i18n = await createI18n('en', ['login']);
    const read = localeChunks.read.bind(localeChunks);
    const offline = vi.spyOn(localeChunks, 'read').mockImplementation(() => Promise.reject(new Error('offline')));
    await expect(textsReady(i18n, 'app')).rejects.toThrow(/the en texts app could not be loaded/);
    expect(hasTexts(i18n, 'app')).toBe(false);
    offline.mockImplementation(read);
    await textsReady(i18n, 'app');
    expect(hasTexts(i18n, 'app')).toBe(true);
  });

  it('gives tests every namespace by default, and a direct changeLanguage fetches the other language', async () => {
    const i18n = await createI18n('en');
    expect(i18n.exists('chat.loading')).toBe(true);
    await i18n.changeLanguage('sv');
    expect(areasIn(i18n, 'sv', 'app')).toContain('chat');
    expect(areasIn(i18n, 'sv', 'login')).toEqual(areasIn(i18n, 'en', 'login'));
    expect(areasIn(i18n, 'sv', 'app')).toEqual(areasIn(i18n, 'en', 'app'));
    expect(i18n.t('common.loading')).not.toBe('common.loading');
  });
});
