import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorBoundary } from '../common/ErrorBoundary';
import { useEngine } from '../hooks/EngineContext';

function Crash({ message }: { message: string }): never {
  throw new Error(message);
}

/**
 * Spec §2 crash test: a render that throws, caught by an error boundary that shows the error (and reports
 * it, issue 9); and the engine's own crash test, an error thrown in its worker.
 */
export function CrashTest() {
  const engine = useEngine();
  const [crashed, setCrashed] = useState(false);
  const [engineCrashed, setEngineCrashed] = useState(false);
  return (
    <>
      <EngineCrash
        done={engineCrashed}
        onCrash={() => {
          engine.crashTest();
          setEngineCrashed(true);
        }}
      />
      <RenderCrash crashed={crashed} setCrashed={setCrashed} />
    </>
  );
}

function EngineCrash({ done, onCrash }: { done: boolean; onCrash: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <p className="debug-hint">{t('debug.crash.engineHint')}</p>
      <button type="button" className="debug-button debug-danger" onClick={onCrash}>
        {t('debug.crash.engineButton')}
      </button>
      {done ? <p role="status">{t('debug.crash.engineDone')}</p> : null}
    </>
  );
}

function RenderCrash({ crashed, setCrashed }: { crashed: boolean; setCrashed: (on: boolean) => void }) {
  const { t } = useTranslation();
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
