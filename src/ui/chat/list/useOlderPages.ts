import { useCallback, useRef, useState } from 'react';
import { useEngine } from '../../hooks/EngineContext';

/**
 * Loading the chat's next older page: one request at a time, and only while the engine says there is older
 * history. `onFailed` runs when a request fails (a quote being fetched gives up); the error stays until the
 * next try.
 */
export function useOlderPages(conversationId: number, view: { hasOlder: boolean; loaded: boolean }, onFailed: () => void) {
  const engine = useEngine();
  // Read when a request starts, which may be long after this render (a timer, a retry button).
  const viewRef = useRef(view);
  viewRef.current = view;
  const onFailedRef = useRef(onFailed);
  onFailedRef.current = onFailed;
  const loading = useRef(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);

  const loadOlder = useCallback(() => {
    if (loading.current || !viewRef.current.hasOlder || !viewRef.current.loaded) return;
    loading.current = true;
    setLoadingOlder(true);
    setOlderError(null);
    engine
      .loadOlderMessages(conversationId)
      .catch((error: unknown) => {
        onFailedRef.current();
        setOlderError(error ?? new Error());
      })
      .finally(() => {
        loading.current = false;
        setLoadingOlder(false);
      });
  }, [engine, conversationId]);

  return { loadingOlder, olderError, loadOlder };
}
