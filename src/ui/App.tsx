import { RouterProvider } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TabEngine } from '../engine/api';
import { ErrorBoundary } from './common/ErrorBoundary';
import { ErrorScreen } from './common/ErrorScreen';
import { EngineProvider } from './hooks/EngineContext';
import { applyLanguage } from './i18n';
import type { AppRouter } from './routing/router';

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

/** `router` is made by the caller (main.tsx) in a task of its own: made in the first render, it lengthened it. */
export function App({ engine, router }: { engine: TabEngine; router: AppRouter }) {
  return (
    <EngineProvider engine={engine}>
      <LanguageFollower engine={engine} />
      <ErrorBoundary fallback={() => <ErrorScreen />}>
        <RouterProvider router={router} />
      </ErrorBoundary>
    </EngineProvider>
  );
}
