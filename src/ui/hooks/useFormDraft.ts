import { useEffect, useRef } from 'react';
import type { FormDraft, FormDrafts } from '../../engine/api';
import { useEngine } from './EngineContext';
import { rescueFormDraft, takeRescuedFormDraft } from './formDraftRescue';
import { useSaveBeforeReload } from './saveBeforeReload';
import { useSession } from './useSession';
import { useQuery } from './useQuery';

const SAVE_DELAY_MS = 400;

/** The form keys of spec §2's kept drafts (the engine takes any key; these are the UI's). */
export const formDraftKeys = {
  newChat: (kind: 'group' | 'broadcast' | 'private') =>
    kind === 'group' ? 'newGroup' : kind === 'broadcast' ? 'newBroadcast' : 'newPrivate',
  addMembers: (conversationId: number) => `addMembers:${conversationId}`,
};

/** One comparable text per draft; '' for a form with nothing typed (which the engine does not keep). */
function canonical(draft: FormDraft | null | undefined): string {
  if (!draft) return '';
  const blank =
    draft.name.trim() === '' &&
    (draft.phone ?? '').trim() === '' &&
    draft.members.every((m) => m.name.trim() === '' && m.phone.trim() === '');
  if (blank) return '';
  return JSON.stringify([draft.name, draft.phone ?? '', draft.members.map((m) => [m.id, m.name, m.phone])]);
}

/**
 * Keeps a form and the engine's draft of it in step (spec §2: drafts of chat creation are kept locally,
 * so they survive reloads and show in every tab). The stored draft fills the form when it opens empty;
 * a change made in another tab is taken while this tab has nothing waiting to be saved. Typing is saved
 * after a short pause and when the form closes. `value` is the form as a draft; `apply` puts a draft
 * (or, for null, an empty form) into the form's state.
 */
export function useFormDraft(
  key: string,
  value: FormDraft,
  apply: (draft: FormDraft | null) => void,
): { clear: () => void } {
  const engine = useEngine();
  const drafts = useQuery<FormDrafts | null>((e) => e.formDrafts(), [], null);
  const session = useSession();
  const userId = session?.status === 'ready' ? session.userId : null;
  const userIdRef = useRef(userId);
  userIdRef.current = userId;
  /** The draft this tab last wrote or took from the engine, canonical (null: none seen yet). */
  const known = useRef<string | null>(null);
  const pending = useRef<FormDraft | null>(null);
  const current = canonical(value);
  const currentRef = useRef(current);
  currentRef.current = current;
  const applyRef = useRef(apply);
  applyRef.current = apply;

  useEffect(() => {
    // Drafts are an account's: nothing is taken before the account is known (a rescued draft names it).
    if (drafts === null || userId === null) return;
    const stored = drafts[key] ?? null;
    const text = canonical(stored);
    if (text === known.current) return;
    const first = known.current === null;
    known.current = text;
    // Typed just before a reload, kept in this browser (formDraftRescue.ts): it wins, and is saved anew.
    const rescued = first && userId !== null ? takeRescuedFormDraft(userId, key) : null;
    if (rescued && canonical(rescued) !== text && currentRef.current === '') {
      applyRef.current(rescued);
      return;
    }
    // On opening, what the user already typed wins (and is saved); later, only an idle form follows.
    if (first ? currentRef.current === '' : pending.current === null) applyRef.current(stored);
  }, [drafts, key, userId]);

  useEffect(() => {
    if (known.current === null || current === known.current) {
      pending.current = null;
      return;
    }
    const draft = current === '' ? null : value;
    pending.current = draft ?? { name: '', members: [] };
    const timer = setTimeout(() => {
      pending.current = null;
      known.current = current;
      void engine.setFormDraft(key, draft).catch((error: unknown) => console.warn('form draft not saved', error));
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
    // `value` is read through `current`, its canonical text: a new object with the same content is no change.
  }, [engine, key, current]);

  // The engine asks the tab to reload (another build took it over): write what is still waiting first.
  useSaveBeforeReload(() => {
    const draft = pending.current;
    if (draft === null) return undefined;
    pending.current = null;
    known.current = current;
    return engine.setFormDraft(key, draft);
  });

  // A reload or a closed tab unmounts nothing: typing still waiting out its delay is written on `pagehide`
  // (issue 23: an add-member draft was lost by a reload within a second of typing). In the capture phase,
  // so it goes out before the engine's link (src/worker/connect.ts) says goodbye on the same event.
  useEffect(() => {
    const flush = () => {
      const draft = pending.current;
      if (draft === null) return;
      pending.current = null;
      known.current = currentRef.current;
      if (userIdRef.current !== null) rescueFormDraft(userIdRef.current, key, draft);
      void engine.setFormDraft(key, draft).catch(() => undefined);
    };
    window.addEventListener('pagehide', flush, { capture: true });
    return () => window.removeEventListener('pagehide', flush, { capture: true });
  }, [engine, key]);

  // Closing the form (another screen): write what is still waiting.
  useEffect(
    () => () => {
      if (pending.current !== null) void engine.setFormDraft(key, pending.current).catch(() => undefined);
    },
    [engine, key],
  );

  return {
    clear: () => {
      pending.current = null;
      known.current = '';
      void engine.setFormDraft(key, null).catch((error: unknown) => console.warn('form draft not cleared', error));
    },
  };
}
