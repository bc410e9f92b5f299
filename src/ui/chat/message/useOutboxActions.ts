import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../common/errorText';
import { useEngine } from '../../hooks/EngineContext';

/** Retry and Discard of a failed send (a message or a comment), with what went wrong doing them. */
export function useOutboxActions(localId: string): { retry: () => void; discard: () => void; actionError: string | null } {
  const { t } = useTranslation();
  const engine = useEngine();
  const [actionError, setActionError] = useState<string | null>(null);
  const run = (action: () => Promise<void>) => {
    setActionError(null);
    action().catch((error: unknown) => setActionError(errorText(error, t)));
  };
  return {
    retry: () => run(() => engine.retrySend(localId)),
    discard: () => run(() => engine.discardSend(localId)),
    actionError,
  };
}
