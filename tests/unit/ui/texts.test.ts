import { describe, expect, it } from 'vitest';
import { createI18n } from '../../../src/ui/i18n';
import { textGroupOf } from '../../../src/ui/textGroups';
import { addTexts, hasTexts, switchingTo, textsReady } from '../../../src/ui/texts';

/** The areas an instance holds in a language (the top-level keys of its one namespace). */
const areasIn = (i18n: Awaited<ReturnType<typeof createI18n>>, language: string) =>
  Object.keys(i18n.getResourceBundle(language, 'translation') ?? {}).sort();

describe('texts loaded on demand (issue 11)', () => {
  it('starts the app with the login group of one language only', async () => {
    const i18n = await createI18n('en', ['login']);
    expect(areasIn(i18n, 'en')).toEqual(['common', 'errors', 'login']);
    expect(i18n.hasResourceBundle('sv', 'translation')).toBe(false);
    expect(i18n.t('login.phone.title')).not.toBe('login.phone.title');
    expect(i18n.exists('chat.loading')).toBe(false);
  });

  it('adds the rest when a screen behind sign-in asks for it', async () => {
    const i18n = await createI18n('sv', ['login']);
    expect(hasTexts(i18n, 'login')).toBe(true);
    expect(hasTexts(i18n, 'app')).toBe(false);
    await textsReady(i18n, 'app');
    expect(hasTexts(i18n, 'app')).toBe(true);
    expect(areasIn(i18n, 'sv').map(textGroupOf)).toContain('app');
    expect(areasIn(i18n, 'sv')).toContain('chat');
    expect(i18n.hasResourceBundle('en', 'translation')).toBe(false);
  });

  it('loads every group the instance holds in a language switched to', async () => {
    const i18n = await createI18n('en', ['login']);
    await textsReady(i18n, 'app');
    await addTexts(i18n, 'sv');
    expect(areasIn(i18n, 'sv')).toEqual(areasIn(i18n, 'en'));
  });

  it('loads a group asked for during a switch in the language being switched to as well', async () => {
    const i18n = await createI18n('en', ['login']);
    switchingTo(i18n, 'sv');
    const switching = addTexts(i18n, 'sv');
    await textsReady(i18n, 'app');
    await switching;
    expect(hasTexts(i18n, 'app')).toBe(true);
    expect(areasIn(i18n, 'sv')).toContain('chat');
    expect(areasIn(i18n, 'en')).toContain('chat');
  });

  it('gives tests every group by default, and a direct changeLanguage fetches the other language', async () => {
    const i18n = await createI18n('en');
    expect(i18n.exists('chat.loading')).toBe(true);
    await i18n.changeLanguage('sv');
    expect(areasIn(i18n, 'sv')).toEqual(areasIn(i18n, 'en'));
    expect(i18n.t('common.loading')).not.toBe('common.loading');
  });
});
