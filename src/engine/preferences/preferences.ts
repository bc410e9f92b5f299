import { BehaviorSubject, type Observable } from 'rxjs';
import type { HostOverrides, Language } from '../contract/types';
import { engineError } from '../errors';
import { FORM_DRAFT_PREFIX } from './formDrafts';
import { INVALID_PARAMETERS } from '../rest/fallbacks';
import type { AppSettings } from '../contract/types';
import { applySettings, normalizeSettings, type SettingsRecord, type StoredSettings } from '../rules';
import { writeUnlessFull } from '../storage/quotaWatch';
import type { EngineStorage, StorageOp } from '../storage/storage';

type Drafts = Readonly<Record<number, string>>;

/** 128 random bits in hex. getRandomValues, not randomUUID: the app may be served over plain http on a LAN. */
function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What the user chose on this device: settings (spec §3), drafts, the language and the debug screen's host
 * overrides, each stored at once and shown to every tab.
 */
export class Preferences {
  /** The settings with what turning notifications back on gives back (rules/settings.ts). */
  private settingsRecord: SettingsRecord = normalizeSettings(null);
  private readonly settings$ = new BehaviorSubject<AppSettings>(this.settingsRecord.settings);
  private readonly drafts$ = new BehaviorSubject<Drafts>({});
  private readonly language$ = new BehaviorSubject<Language | null>(null);
  private hosts: HostOverrides = { apiBase: null, wsBase: null };
  private draftWrites: Promise<void> = Promise.resolve();
  private settingsWrites: Promise<unknown> = Promise.resolve();
  /** Made at once, so no call can go without one; a stored id replaces it in `load`. */
  private installId = randomId();

  constructor(private readonly storage: EngineStorage) {}

  async load(): Promise<void> {
    const [settings, hosts, drafts, language, installId] = await Promise.all([
      this.storage.get<StoredSettings>('settings', 'app'),
      this.storage.get<HostOverrides>('meta', 'hosts'),
      this.storage.getAll<string>('drafts'),
      this.storage.get<Language>('meta', 'language'),
      this.storage.get<string>('meta', 'clientToken'),
    ]);
    if (hosts) this.hosts = hosts;
    if (typeof installId === 'string' && installId !== '') {
      this.installId = installId;
    } else {
      // A failed write costs only a new id at the next start, so it must not stop this one.
      const id = { store: 'meta', type: 'put', key: 'clientToken', value: this.installId } as const;
      void this.storage.writeBatch([id]).catch(() => undefined);
    }
    // The store also holds the new-chat forms' drafts (formDrafts.ts), under their own prefix.
    const messageDrafts = drafts.filter((d) => !d.key.startsWith(FORM_DRAFT_PREFIX));
    this.drafts$.next(Object.fromEntries(messageDrafts.map((d) => [Number(d.key), d.value])));
    if (language === 'en' || language === 'sv') this.language$.next(language);
    this.setRecord(normalizeSettings(settings));
  }

  /** Client-Token (spec §7): made once per browser profile and kept in meta, which outlives sign-outs. */
  get clientToken(): string {
    return this.installId;
  }

  get hostOverrides(): HostOverrides {
    return this.hosts;
  }

  get currentSettings(): AppSettings {
    return this.settings$.value;
  }

  settings(): Observable<AppSettings> {
    return this.settings$;
  }

  drafts(): Observable<Drafts> {
    return this.drafts$;
  }

  language(): Observable<Language | null> {
    return this.language$;
  }

  /** The chosen language now (null before any choice): every REST call asks the server for its texts in it. */
  get currentLanguage(): Language | null {
    return this.language$.value;
  }

  /**
   * Writes one at a time, each judged against the drafts as the previous write left them: a save still
   * being written when the message is sent must not outlive the clearing that follows it.
   */
  setDraft(conversationId: number, text: string): Promise<void> {
    const write = this.draftWrites.then(() => this.writeDraft(conversationId, text));
    this.draftWrites = write.catch(() => undefined);
    return write;
  }

  private async writeDraft(conversationId: number, text: string): Promise<void> {
    const blank = text.trim() === '';
    const stored = this.drafts$.value;
    if (blank ? !(conversationId in stored) : stored[conversationId] === text) return;
    const key = String(conversationId);
    await this.keep([blank ? { store: 'drafts', type: 'delete', key } : { store: 'drafts', type: 'put', key, value: text }]);
    const next = { ...this.drafts$.value };
    if (blank) delete next[conversationId];
    else next[conversationId] = text;
    this.drafts$.next(next);
  }

  async setLanguage(language: Language): Promise<void> {
    if (language !== 'en' && language !== 'sv') throw engineError('setLanguage', 0, null, INVALID_PARAMETERS);
    // Kept in meta, which outlives a session: the language is the device's, not the account's.
    await this.keep([{ store: 'meta', type: 'put', key: 'language', value: language }]);
    this.language$.next(language);
  }

  /** One write at a time, each from what the previous one left: a quick off-then-on must end on. */
  updateSettings(patch: Partial<AppSettings>): Promise<AppSettings> {
    const write = this.settingsWrites.then(() => this.writeSettings(patch));
    this.settingsWrites = write.catch(() => undefined);
    return write;
  }

  private async writeSettings(patch: Partial<AppSettings>): Promise<AppSettings> {
    const next = applySettings(this.settingsRecord, patch);
    if (next !== this.settingsRecord) {
      const value: StoredSettings = { ...next.settings, beforeOff: next.beforeOff };
      await this.keep([{ store: 'settings', type: 'put', key: 'app', value }]);
      this.setRecord(next);
    }
    return next.settings;
  }

  /** Writes a choice, kept in memory for as long as this engine runs when the store is full (writeUnlessFull). */
  private keep(ops: StorageOp[]): Promise<void> {
    return writeUnlessFull(this.storage, ops);
  }

  /** The tabs see the four settings; what turning notifications on gives back stays in the engine. */
  private setRecord(record: SettingsRecord): void {
    this.settingsRecord = record;
    this.settings$.next(record.settings);
  }

  async setHostOverrides(overrides: HostOverrides): Promise<void> {
    this.hosts = overrides;
    await this.storage.writeBatch([{ store: 'meta', type: 'put', key: 'hosts', value: overrides }]);
  }

  /** Logout cleared the stored settings and drafts (spec §4); the language and host overrides stay. */
  forgetAccountData(): void {
    this.setRecord(normalizeSettings(null));
    this.drafts$.next({});
  }
}
