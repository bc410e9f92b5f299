import { BehaviorSubject, type Observable } from 'rxjs';
import { engineError } from '../errors';
import { INVALID_PARAMETERS } from '../rest/fallbacks';
import type { EngineStorage } from '../storage/storage';
import { HISTORY_KEPT_CHOICES, type HistoryKept } from '../contract/types';

export const DEFAULT_HISTORY_KEPT: HistoryKept = 'everything';

/** How many items of each chat or channel `latest-1000` keeps. */
export const LATEST_KEPT = 1000;

export const keptLimit = (kept: HistoryKept): number => (kept === 'latest-1000' ? LATEST_KEPT : Infinity);

const isHistoryKept = (value: unknown): value is HistoryKept => HISTORY_KEPT_CHOICES.includes(value as HistoryKept);

/** Meta record of the choice: it is the device's (its storage), so it outlives a sign-out like the language. */
const META_KEY = 'historyKept';

/** The device's choice, stored in `meta`. */
export class HistoryKeptSetting {
  private readonly subject = new BehaviorSubject<HistoryKept>(DEFAULT_HISTORY_KEPT);

  constructor(private readonly storage: EngineStorage) {}

  async load(): Promise<void> {
    const stored = await this.storage.get<unknown>('meta', META_KEY);
    if (isHistoryKept(stored)) this.subject.next(stored);
  }

  get value(): HistoryKept {
    return this.subject.value;
  }

  changes(): Observable<HistoryKept> {
    return this.subject.asObservable();
  }

  async set(kept: unknown): Promise<void> {
    if (!isHistoryKept(kept)) throw engineError('setHistoryKept', 400, null, INVALID_PARAMETERS);
    if (kept === this.subject.value) return;
    await this.storage.writeBatch([{ store: 'meta', type: 'put', key: META_KEY, value: kept }]);
    this.subject.next(kept);
  }
}
