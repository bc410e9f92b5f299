import type { FormDraft } from '../../engine/api';

/**
 * A form draft typed just before the page went away (issue 23): the engine's worker may end with the page
 * before its write commits, so `pagehide` also leaves it in this browser's localStorage, synchronously. The
 * form takes it back when it opens again for the same account and hands it to the engine; it is then
 * removed. Only the few hundred milliseconds of the save delay ever live here.
 */
const PREFIX = 'formDraftRescue:';
const MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Rescued {
  userId: number;
  draft: FormDraft;
  at: number;
}

export function rescueFormDraft(userId: number, key: string, draft: FormDraft): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ userId, draft, at: Date.now() } satisfies Rescued));
  } catch {
    // No storage (private mode, full): the engine's own write is all there is.
  }
}

/** The rescued draft of `key` for this account, taken out of storage; null when there is none. */
export function takeRescuedFormDraft(userId: number, key: string): FormDraft | null {
  try {
    const text = localStorage.getItem(PREFIX + key);
    if (text === null) return null;
    localStorage.removeItem(PREFIX + key);
    const rescued = JSON.parse(text) as Partial<Rescued>;
    const fresh = typeof rescued.at === 'number' && Date.now() - rescued.at < MAX_AGE_MS;
    return rescued.userId === userId && fresh && rescued.draft && Array.isArray(rescued.draft.members) ? rescued.draft : null;
  } catch {
    return null;
  }
}
