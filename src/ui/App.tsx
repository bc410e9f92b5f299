import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TabEngine } from '../engine/api';
import { ErrorBoundary } from './common/ErrorBoundary';
import { EngineProvider } from './hooks/EngineContext';
import { applyLanguage } from './i18n';
import { createAppRouter } from './routing/router';

/** Follows the engine's stored language (shared by every tab); the first paint used the local mirror. */
function LanguageFollower({ engine }: { engine: TabEngine }) {
  const { i18n } = useTranslation();
  useEffect(() => {
    const subscription = engine.language().subscribe((language) => {
      if (language) applyLanguage(i18n, language);
    });
    return () => subscription.unsubscribe();
  }, [engine, i18n]);
  return null;
}

/** What shows when a render error reaches the top: the reason in the user's language, and a way out. */
function Crashed() {
  const { t } = useTranslation();
  return (
    <main className="app-crashed" role="alert">
      <h1>{t('common.crashed.title')}</h1>
      <p>{t('common.crashed.text')}</p>
      <button type="button" className="mx-button mx-button--primary" onClick={() => window.location.reload()}>
        {t('common.crashed.reload')}
      </button>
    </main>
  );
}

export function App({ engine }: { engine: TabEngine }) {
  const [router] = useState(createAppRouter);
  return (
    <EngineProvider engine={engine}>
      <LanguageFollower engine={engine} />
      <ErrorBoundary fallback={() => <Crashed />}>
        <RouterProvider router={router} />
      </ErrorBoundary>
    </EngineProvider>
  );
}
