import { useCallback, useEffect, useState } from 'react';
import { useEngine } from '../hooks/EngineContext';

export type LoadStatus = 'loading' | 'loaded' | 'error';

/**
 * Asks the engine for a fresh list (spec §2 chats list). The list itself comes from `conversations()`;
 * this only says whether the first answer is still due or failed (with the engine's error), so the screen
 * can show the 10 skeleton rows or the error with its retry while nothing is cached.
 */
export function useConversationsLoad(): { status: LoadStatus; error: unknown; retry: () => void } {
  const engine = useEngine();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<{ status: LoadStatus; error: unknown }>({ status: 'loading', error: null });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading', error: null });
    engine.refreshConversations().then(
      () => live && setState({ status: 'loaded', error: null }),
      (error: unknown) => {
        if (live) setState({ status: 'error', error });
      },
    );
    return () => {
      live = false;
    };
  }, [engine, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, retry };
}
