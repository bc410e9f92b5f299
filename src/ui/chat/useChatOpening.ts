import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConnectionState, FirstUnread } from '../../engine/api';
import { isEngineError } from '../../engine/api';
import { useEngine } from '../hooks/EngineContext';
import { useQuery } from '../hooks/useQuery';

/** Why a chat did not open: the engine's error, and whether it says the chat is not the user's (404). */
export interface OpenFailure {
  error: unknown;
  notFound: boolean;
}

/**
 * Opens a chat (its latest page, or the page around `targetId`) and keeps trying while it failed: `retry`
 * opens it again in place (issue 23: the banner's Retry no longer reloads /inbox), and so does the socket
 * coming back online, so a load that failed offline mends itself once the server answers again. A failure
 * stays shown while a retry is under way and goes only when a retry succeeds. `offline` says the failure is
 * only the network's while the socket is away too: not an error for a chat that has a cache to show. Opened at
 * the latest, it asks the engine to open at the first unread message and says where that was (`firstUnread`:
 * undefined until answered, null when nothing was unread or the opening failed; docs/ui.md, "Opening at the
 * first unread message").
 */
export function useChatOpening(conversationId: number, targetId: number | null, opening: string | null) {
  const engine = useEngine();
  const [failure, setFailure] = useState<OpenFailure | null>(null);
  const [opened, setOpened] = useState(false);
  const [settled, setSettled] = useState<string | null>(null);
  /** The engine's answer of where the unread messages began, and the opening it answered (not an earlier one's). */
  const [unread, setUnread] = useState<{ opening: string | null; first: FirstUnread | null } | null>(null);
  /** The current opening's attempt: an answer of an older one (another chat, or a retry overtaken) is dropped. */
  const attempt = useRef(0);

  const open = useCallback(
    (fresh: boolean) => {
      const mine = ++attempt.current;
      if (fresh) {
        setFailure(null);
        setOpened(false);
        setUnread(null);
      }
      const call =
        targetId === null
          ? // A retry keeps the divider placed by the first answer: it does not walk to the first unread again.
            engine.openConversation(conversationId, { atUnread: fresh })
          : engine.openConversationAt(conversationId, targetId).then(() => null);
      call
        .then((first) => {
          if (mine !== attempt.current) return;
          setFailure(null);
          // A retry's answer does not move a divider already placed.
          setUnread((placed) => placed ?? { opening, first: first ?? null });
        })
        .catch((error: unknown) => {
          if (mine !== attempt.current) return;
          setFailure({ error, notFound: isEngineError(error) && error.status === 404 });
          setUnread((placed) => placed ?? { opening, first: null });
        })
        .finally(() => {
          if (mine === attempt.current) {
            setOpened(true);
            setSettled(opening);
          }
        });
    },
    // `opening` names `targetId` and the visit: a new visit opens again.
    [engine, conversationId, opening],
  );

  useEffect(() => {
    open(true);
    return () => {
      attempt.current++;
    };
  }, [open]);

  const connection = useQuery<ConnectionState | null>((e) => e.connection(), [], null);
  const wasOnline = useRef(connection === 'online');
  const retryable = failure !== null && !failure.notFound;
  useEffect(() => {
    const cameOnline = connection === 'online' && !wasOnline.current;
    if (connection !== null) wasOnline.current = connection === 'online';
    if (!cameOnline || !retryable) return;
    // An offline failure is no error (below); while its retry runs online it must not turn into one, so the
    // banner shows only if the retry fails too.
    if (failure && isEngineError(failure.error) && failure.error.status === 0) setFailure(null);
    open(false);
  }, [connection, retryable, open]);

  const retry = useCallback(() => open(false), [open]);
  // Unanswered while the socket is not online: the app is offline, which the connection line already says.
  // A chat with a cache shows it, and the opening is tried again once the socket is back (docs/ui.md).
  const offline = failure !== null && isEngineError(failure.error) && failure.error.status === 0 && connection !== 'online';
  const firstUnread = unread !== null && unread.opening === opening ? unread.first : undefined;
  return { failure, offline, opened, settled, retry, firstUnread };
}
