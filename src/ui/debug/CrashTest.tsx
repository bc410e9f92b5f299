import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from './ErrorBoundary';

function Crash({ message }: { message: string }): never {
  throw new Error(message);
}

/** Spec §2 crash test: a render that throws, caught by an error boundary that shows the error. */
export function CrashTest() {
  const { t } = useTranslation();
  const [crashed, setCrashed] = useState(false);
  return (
    <ErrorBoundary
      fallback={(error, reset) => (
        <div className="debug-crash" role="alert">
          <p className="debug-crash-title">{t('debug.crash.caught')}</p>
          <pre className="debug-crash-message">{error.message}</pre>
          <button
            type="button"
            className="debug-button"
            onClick={() => {
              setCrashed(false);
              reset();
            }}
          >
            {t('debug.crash.reset')}
          </button>
        </div>
      )}
    >
      {crashed ? <Crash message={t('debug.crash.message')} /> : null}
      <p className="debug-hint">{t('debug.crash.hint')}</p>
      <button type="button" className="debug-button debug-danger" onClick={() => setCrashed(true)}>
        {t('debug.crash.button')}
      </button>
    </ErrorBoundary>
  );
}
