import type { ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import type { TabEngine } from '../../../src/engine/api';
import { EngineProvider } from '../../../src/ui/hooks/EngineContext';
import { createI18n, type Language } from '../../../src/ui/i18n';
import { act } from './act';

let root: Root | null = null;
let host: HTMLElement | null = null;

/**
 * Renders `children` inside the app's providers (i18n in `language`, the engine) into a fresh host
 * element appended to the page, after unmounting what the last call rendered.
 */
export async function mount(
  children: ReactNode,
  options: {
    engine: TabEngine;
    language?: Language;
    /** The host element: its tag, inline style and attributes (a class, a data- marker). */
    tag?: string;
    style: string;
    attributes?: Record<string, string>;
  },
): Promise<HTMLElement> {
  await unmountAll();
  const i18n = await createI18n(options.language ?? 'en');
  const element = document.createElement(options.tag ?? 'div');
  element.style.cssText = options.style;
  for (const [name, value] of Object.entries(options.attributes ?? {})) element.setAttribute(name, value);
  document.body.append(element);
  host = element;
  const r = createRoot(element);
  root = r;
  await act(async () => {
    r.render(
      <I18nextProvider i18n={i18n}>
        <EngineProvider engine={options.engine}>{children}</EngineProvider>
      </I18nextProvider>,
    );
  });
  return element;
}

/** Unmounts what `mount` rendered and takes its host off the page. */
export async function unmountAll(): Promise<void> {
  const r = root;
  root = null;
  if (r) await act(async () => r.unmount());
  host?.remove();
  host = null;
}
