import { useEffect, useRef } from 'react';
import type { TabEngine } from '../../../engine/api';
import { useQuery } from '../../hooks/useQuery';
import { useSaveBeforeReload } from '../../hooks/saveBeforeReload';

const SAVE_DELAY_MS = 400;

/**
 * Keeps the composer's text and the engine's draft of the conversation in step (issue 4: the draft
 * survives reloads and shows in every tab). The stored draft fills an empty input when it arrives, and
 * a change made in another tab is taken while this tab's input is not being typed in. Typing is saved
 * after a short pause and on unmount, so closing the chat or the tab loses nothing.
 */
export function useDraft(
  engine: TabEngine,
  conversationId: number,
  text: string,
  setText: (text: string) => void,
  options: { paused: boolean; typing: () => boolean },
): { cleared: () => void } {
  const drafts = useQuery<Readonly<Record<number, string>> | null>((e) => e.drafts(), [], null);
  /** The draft text this tab last wrote or took from the engine (null: none seen yet). */
  const known = useRef<string | null>(null);
  const pending = useRef<string | null>(null);
  const textRef = useRef(text);
  textRef.current = text;
  const { paused, typing } = options;
  // Typing before the stored drafts first arrive is saved once they do (the effect below runs again then).
  const loaded = drafts !== null;

  useEffect(() => {
    if (drafts === null || paused) return;
    const stored = drafts[conversationId] ?? '';
    if (stored === known.current) return;
    const first = known.current === null;
    known.current = stored;
    if (first ? textRef.current === '' : !typing()) setText(stored);
  }, [drafts, conversationId, paused, setText, typing]);

  useEffect(() => {
    if (paused) return;
    if (known.current === null || text === known.current) {
      pending.current = null;
      return;
    }
    pending.current = text;
    const timer = setTimeout(() => {
      pending.current = null;
      known.current = text;
      void engine.setDraft(conversationId, text);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [engine, conversationId, text, paused, loaded]);

  // The engine asks the tab to reload (another build took it over): write what is still waiting first.
  useSaveBeforeReload(() => {
    const text = pending.current;
    if (text === null) return undefined;
    pending.current = null;
    known.current = text;
    return engine.setDraft(conversationId, text);
  });

  // Unmount (another chat, another screen, the tab closing): write what is still waiting.
  useEffect(
    () => () => {
      if (pending.current !== null) void engine.setDraft(conversationId, pending.current);
    },
    [engine, conversationId],
  );

  return {
    cleared: () => {
      pending.current = null;
      known.current = '';
      void engine.setDraft(conversationId, '');
    },
  };
}
