import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { createI18n, initialLanguage } from '../../src/ui/i18n';

let root: Root | undefined;
let host: HTMLElement | undefined;

async function render(language: 'en' | 'sv') {
  const i18n = await createI18n(language);
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  await act(async () => {
    root!.render(
      <I18nextProvider i18n={i18n}>
        <App />
      </I18nextProvider>,
    );
  });
  return host;
}

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  localStorage.clear();
});

describe('first screen in Chromium', () => {
  it('renders in English with a labelled language choice', async () => {
    const el = await render('en');
    expect(el.querySelector('h1')?.textContent).toBe('Messenger');
    expect(el.textContent).toContain('Chat with anyone who has a phone number.');
    const select = el.querySelector('select');
    expect(select?.closest('label')?.textContent).toContain('Language');
  });

  it('switches to Swedish and stores the choice', async () => {
    const el = await render('en');
    const select = el.querySelector('select') as HTMLSelectElement;
    await act(async () => {
      select.value = 'sv';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(el.textContent).toContain('Chatta med alla som har ett telefonnummer.');
    expect(localStorage.getItem('language')).toBe('sv');
    expect(document.documentElement.lang).toBe('sv');
  });

  it('picks the language from storage, then the browser, then English', () => {
    expect(initialLanguage('sv', ['en-US'])).toBe('sv');
    expect(initialLanguage(null, ['sv-SE', 'en'])).toBe('sv');
    expect(initialLanguage('xx', ['de-DE'])).toBe('en');
    expect(initialLanguage(null, navigator.languages)).toMatch(/^(en|sv)$/);
  });
});
