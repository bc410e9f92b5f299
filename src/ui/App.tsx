import { RouterProvider } from '@tanstack/react-router';
import { useSubscription } from 'observable-hooks';
import { useMemo } from 'react';
import type { TabEngine } from '../engine/api';
import { ErrorBoundary } from './common/ErrorBoundary';
import { ErrorScreen } from './common/ErrorScreen';
import { EngineProvider } from './hooks/EngineContext';
import { useI18nInstance } from './hooks/useI18nInstance';
import { applyLanguage } from './i18n';
import type { AppRouter } from './routing/router';

/** Follows the engine's stored language (shared by every tab); the first paint used the local mirror. */
function LanguageFollower({ engine }: { engine: TabEngine }) {
  const i18n = useI18nInstance();
  const language = useMemo(() => engine.language(), [engine]);
  useSubscription(language, (chosen) => {
    if (chosen) applyLanguage(i18n, chosen);
  });
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
