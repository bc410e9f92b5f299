import { BehaviorSubject, combineLatest, distinctUntilChanged, map, type Observable } from 'rxjs';
import { engineError } from '../errors';
import { INVALID_PARAMETERS } from '../rest/fallbacks';
import type { EngineStorage } from '../storage/storage';
import type { FormDraft, FormDraftMember, FormDrafts } from '../contract/types';

/** How a form draft is stored: in the drafts store (cleared on logout), tagged with its account. */
interface StoredFormDraft {
  userId: number;
  key: string;
  draft: FormDraft;
}

/** Form drafts share the message drafts' store; this prefix keeps them apart from conversation ids. */
export const FORM_DRAFT_PREFIX = 'form:';

const storageKey = (userId: number, key: string) => `${FORM_DRAFT_PREFIX}${userId}:${key}`;

const isString = (value: unknown): value is string => typeof value === 'string';

/** The draft as plain data, or null when it is not a FormDraft (refused, so nothing odd is stored). */
function plainDraft(value: unknown): FormDraft | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (!isString(v.name) || (v.phone !== undefined && !isString(v.phone)) || !Array.isArray(v.members)) return null;
  const members: FormDraftMember[] = [];
  for (const m of v.members as unknown[]) {
    if (typeof m !== 'object' || m === null) return null;
    const { id, name, phone } = m as Record<string, unknown>;
    if (!isString(id) || !isString(name) || !isString(phone)) return null;
    members.push({ id, name, phone });
  }
  return { name: v.name, ...(isString(v.phone) ? { phone: v.phone } : {}), members };
}

/** Nothing typed: storing it would only bring back an empty form. */
const isEmpty = (draft: FormDraft) =>
  draft.name.trim() === '' &&
  (draft.phone ?? '').trim() === '' &&
  draft.members.every((m) => m.name.trim() === '' && m.phone.trim() === '');

/**
 * Drafts of the new-chat and add-member forms (spec §2), per account: written at once to the engine's
 * store, so they survive reloads and every tab sees the same ones. Logout clears the drafts store.
 */
export class FormDraftStore {
  private readonly all$ = new BehaviorSubject<readonly StoredFormDraft[]>([]);

  constructor(
    private readonly storage: EngineStorage,
    private readonly userId: Observable<number | null>,
    private readonly currentUserId: () => number | null,
  ) {}

  async load(): Promise<void> {
    const rows = await this.storage.getAll<StoredFormDraft>('drafts');
    this.all$.next(
      rows
        .filter((row) => row.key.startsWith(FORM_DRAFT_PREFIX))
        .map((row) => row.value)
        .filter((v) => typeof v?.userId === 'number' && isString(v.key) && plainDraft(v.draft) !== null),
    );
  }

  /** The signed-in account's drafts by form key (none while signed out). */
  formDrafts(): Observable<FormDrafts> {
    return combineLatest([this.all$, this.userId.pipe(distinctUntilChanged())]).pipe(
      map(([all, userId]) =>
        Object.fromEntries(all.filter((d) => d.userId === userId).map((d) => [d.key, d.draft])),
      ),
    );
  }

  /** Stores the draft of a form; null or an empty draft removes it. Signed out there is nobody to keep it for. */
  async setFormDraft(key: string, draft: FormDraft | null): Promise<void> {
    const plain = draft === null ? null : plainDraft(draft);
    if (!isString(key) || key.trim() === '' || (draft !== null && plain === null)) {
      throw engineError('setFormDraft', 0, null, INVALID_PARAMETERS);
    }
    const userId = this.currentUserId();
    if (userId === null) return;
    const keep = plain !== null && !isEmpty(plain);
    const others = this.all$.value.filter((d) => !(d.userId === userId && d.key === key));
    if (!keep && others.length === this.all$.value.length) return;
    const id = storageKey(userId, key);
    const stored: StoredFormDraft | null = keep ? { userId, key, draft: plain } : null;
    await this.storage.writeBatch([
      stored ? { store: 'drafts', type: 'put', key: id, value: stored } : { store: 'drafts', type: 'delete', key: id },
    ]);
    this.all$.next(stored ? [...others, stored] : others);
  }

  /** Logout cleared the drafts store (spec §4). */
  forget(): void {
    this.all$.next([]);
  }
}
