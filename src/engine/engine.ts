import { defer, map, type Observable, switchMap } from 'rxjs';
import { isApiQuery, type RestCallName } from './api';
import { type EngineClock, realClock } from './clock';
import type { CommunityCommands } from './community/communityCommands';
import type {
  ConnectionState,
  HistoryKept,
  MessageSearchView,
  OutboxEntry,
  SendInput,
  SessionView,
  SignedOutReason,
  StorageStatus,
  TabState,
} from './contract/types';
import type { ConversationCommands } from './conversations/conversationCommands';
import type { Conversation } from '../protocol/entities';
import { deferredPart } from './deferredPart';
import { CountryList } from './session/countries';
import { engineError } from './errors';
import { ConversationExporter } from './export/exporter';
import { Notifier } from './notifications/notifier';
import type { Outbox } from './messages/outbox';
import { FormDraftStore } from './preferences/formDrafts';
import { browserLanguage, threadLanguages } from './preferences/browserLanguage';
import { Preferences } from './preferences/preferences';
import { fetchTransport, type HttpTransport, type RestClient } from './rest';
import { authCalls } from './rest/authCalls';
import { RestCore } from './rest/core';
import { INVALID_PARAMETERS } from './rest/fallbacks';
import { type AreaImplementation, type DelegatedApi, serveApi } from './serveApi';
import type { SocketFactory } from './socket';
import type { SignedInParts } from './signedInParts';
import { Session } from './session/session';
import { ClosableStorage } from './storage/closableStorage';
import { QuotaWatchStorage } from './storage/quotaWatch';
import type { EngineStorage } from './storage/storage';
import { TabRegistry } from './tabs/tabs';

export interface EngineOptions {
  storage: EngineStorage;
  /** Where the API lives by default (the page's origin in the browser). */
  apiBase: string;
  transport?: HttpTransport;
  socketFactory?: SocketFactory;
  clock?: EngineClock;
  log?: (message: string, detail?: unknown) => void;
}

const toWs = (httpBase: string) => httpBase.replace(/^http/, 'ws');
/** How long a logout waits for the server to end its token before signing out here regardless. */
const LOGOUT_WAIT_MS = 5_000;

/**
 * The client engine (design.md §1, §3) behind EngineApi; one instance serves every tab of a browser profile.
 * It composes the parts and wires them to each other: the session, the state and its persistence, the chats
 * (conversationCommands.ts), the outbox, receipts, notifications, preferences and the communities.
 *
 * It answers EngineApi as the table in api.ts routes each name: a name of area 'engine' is a method of this
 * class (an answer that takes several parts); every other name is the method of the same name of its part,
 * installed by the constructor (serveApi.ts), so no method here only passes a call on.
 */
class EngineCore implements AreaImplementation<'engine'> {
  private readonly clock: EngineClock;
  private readonly log: (message: string, detail?: unknown) => void;
  private readonly tabs = new TabRegistry();
  /**
   * The REST client: the session's calls from the start, the signed-in user's added with the signed-in parts
   * (rest/signedInCalls.ts). Only those parts and `call` (which loads them first) use the latter.
   */
  private readonly rest: RestClient;
  private readonly restCore: RestCore;
  private readonly sessionStore: Session;
  private readonly preferences: Preferences;
  private readonly formDraftStore: FormDraftStore;
  private readonly countryList: CountryList;
  private readonly notifier: Notifier;
  /** "Export chat" (issue 24): its progress lives here; the work loads with the first export. */
  private readonly exporter: ConversationExporter;
  /**
   * The parts only a signed-in user needs (signedInParts.ts), a chunk of their own (issue 11): loaded when a
   * stored session is restored or at sign-in, or by the first call that needs them; null until then.
   */
  private parts: SignedInParts | null = null;
  private partsLoad: Promise<SignedInParts> | null = null;
  /** What `open` left to `start`: the signed-in parts loading and connecting (resolved when signed out). */
  private started: Promise<void> = Promise.resolve();
  /** Until the parts are there, their methods called from outside load them first (deferredPart.ts). */
  private readonly later: { chats: ConversationCommands; outboxQueue: Outbox; communityCommands: CommunityCommands };
  /** The store as this engine writes it: closed for writes once it stopped. */
  private readonly storage: ClosableStorage;
  /** The store's room (issue 12): full once a write was refused for want of space. */
  private readonly quota: QuotaWatchStorage;
  /** Between a logout's start and its answer from the server (see `endOnServer`). */
  private loggingOut = false;
  /** Aborts every REST call of this engine when it stops. */
  private readonly lifetime = new AbortController();
  /** The browser's languages, as the latest tab to say so sees them (a worker's own may differ: see TabState). */
  private tabLanguages: readonly string[] | null = null;

  constructor(private readonly options: EngineOptions) {
    this.quota = new QuotaWatchStorage(options.storage);
    const storage = (this.storage = new ClosableStorage(this.quota));
    const clock = (this.clock = options.clock ?? realClock);
    const log = (this.log = options.log ?? ((message, detail) => console.warn(message, detail ?? '')));
    const rest = () => this.rest;
    this.preferences = new Preferences(storage);
    const sessionList = async () => (await this.signedIn()).sessionList;
    this.sessionStore = new Session({ storage, rest, sessionList, clock, log, pinApiBase: (phone) => this.pinApiBase(phone) });
    this.formDraftStore = new FormDraftStore(
      storage,
      this.sessionStore.changes().pipe(map((auth) => auth?.userId ?? null)),
      () => this.sessionStore.auth?.userId ?? null,
    );
    this.restCore = new RestCore({
      transport: options.transport ?? fetchTransport,
      session: () => ({
        apiBase: this.apiBase(),
        token: this.sessionStore.auth?.token ?? null,
        // The chosen language, else the one the tabs show (the browser's), so a refusal the UI has no text of
        // its own for comes in the app's language from the first call (docs/ui.md "Refusals").
        language: this.preferences.currentLanguage ?? browserLanguage(this.tabLanguages ?? threadLanguages()),
      }),
      clientToken: () => this.preferences.clientToken,
      // While logging out, the server ends the token first: a 401 meanwhile is that, not a session ended elsewhere.
      onUnauthorized: () => void this.signOut(this.loggingOut ? null : 'sessionEnded'),
      lifetime: this.lifetime.signal,
    });
    this.rest = authCalls(this.restCore) as RestClient;
    this.countryList = new CountryList({ storage, rest, log });
    this.notifier = new Notifier({
      settings: () => this.preferences.currentSettings,
      // Only the signed-in parts' state announces messages, so it is there whenever this is read.
      state: () => this.loadedParts().state.value,
      tabs: this.tabs,
      now: () => clock.now(),
    });
    this.exporter = new ConversationExporter({
      rest,
      storage,
      conversation: (id) => this.conversationWithMembers(id),
      language: () => this.preferences.currentLanguage ?? 'en',
      apiBase: () => this.apiBase(),
      now: () => clock.now(),
    });
    const parts = () => this.signedIn();
    this.later = {
      chats: deferredPart(() => parts().then((p) => p.chats), isApiQuery),
      outboxQueue: deferredPart(() => parts().then((p) => p.outboxQueue), isApiQuery),
      communityCommands: deferredPart(() => parts().then((p) => p.communityCommands), isApiQuery),
    };
    // Every other area's names: the part's own methods, looked up at each call (a lazy part is its stand-in
    // until loaded, then itself).
    Object.assign(
      this,
      serveApi({
        session: () => this.sessionStore,
        countries: () => this.countryList,
        settings: () => this.preferences,
        formDrafts: () => this.formDraftStore,
        notifications: () => this.notifier,
        chats: () => this.chats,
        outbox: () => this.outboxQueue,
        communities: () => this.communityCommands,
        exports: () => this.exporter,
      }),
    );
  }

  /**
   * Restores the stored session, settings and drafts; when signed in, loads the signed-in parts (the state,
   * the outbox, …) and connects. Signed out, those load at sign-in.
   */
  async start(): Promise<void> {
    await this.open();
    await this.started;
  }

  /**
   * The part of `start` the tabs wait for: the stored session, settings and drafts. The signed-in parts load
   * and connect behind it (`whenStarted`), their queries waiting for them, so a cold start's tab renders its
   * screen while they load and gets the stored list as soon as it is read, before any network answer (issue 11).
   */
  async open(): Promise<void> {
    const [auth] = await Promise.all([this.sessionStore.read(), this.preferences.load(), this.formDraftStore.load()]);
    if (!auth) return;
    // The session first: the outbox and the receipts send only for the signed-in user.
    this.sessionStore.restore(auth);
    this.started = this.startSignedIn(auth.userId);
  }

  /** Resolves when what `open` left to load is loaded and connecting; rejects when that failed. */
  whenStarted(): Promise<void> {
    return this.started;
  }

  private async startSignedIn(userId: number): Promise<void> {
    const parts = await this.signedIn();
    // Stopped while they loaded: nothing may connect after the stop.
    if (this.lifetime.signal.aborted) return;
    // The state is written behind the session: an engine killed right after sign-in leaves a stored session
    // whose state does not know its user yet, and without it no message is told from one's own (issue 12).
    if (parts.state.value.selfId !== userId) parts.state.dispatch({ type: 'signedIn', selfId: userId });
    parts.connect();
    void this.sessionStore.refreshAccount();
  }

  /** The signed-in parts, loaded (their chunk, then what the store holds of them) on the first call. */
  private signedIn(): Promise<SignedInParts> {
    this.partsLoad ??= import('./signedInParts').then(async ({ SignedInParts, signedInCalls }) => {
      Object.assign(this.rest, signedInCalls(this.restCore));
      const parts = new SignedInParts({
        storage: this.storage,
        rest: () => this.rest,
        clock: this.clock,
        log: this.log,
        tabs: this.tabs,
        session: this.sessionStore,
        preferences: this.preferences,
        notifier: this.notifier,
        wsBase: () => this.preferences.hostOverrides.wsBase ?? toWs(this.apiBase()),
        ...(this.options.socketFactory ? { socketFactory: this.options.socketFactory } : {}),
      });
      await parts.load();
      // Only once loaded: until then the tabs' queries wait for them (deferredPart), not see them empty.
      this.parts = parts;
      return parts;
    });
    return this.partsLoad;
  }

  /**
   * A chat with its whole member list, for an export's names: the server's (the list keeps groups without
   * their members), else, offline, the copy this engine has.
   */
  private async conversationWithMembers(conversationId: number): Promise<Conversation> {
    try {
      return (await this.rest.getConversation(conversationId)).conversation;
    } catch (error) {
      const known = this.parts?.state.value.conversations[conversationId];
      if (known) return known;
      throw error;
    }
  }

  private loadedParts(): SignedInParts {
    if (!this.parts) throw new Error('the signed-in parts of the engine are not loaded');
    return this.parts;
  }

  private get chats(): ConversationCommands {
    return this.parts?.chats ?? this.later.chats;
  }

  private get outboxQueue(): Outbox {
    return this.parts?.outboxQueue ?? this.later.outboxQueue;
  }

  private get communityCommands(): CommunityCommands {
    return this.parts?.communityCommands ?? this.later.communityCommands;
  }

  /** A query of the signed-in parts: theirs once loaded; until then it loads them and then follows theirs. */
  private ofParts<T>(query: (parts: SignedInParts) => Observable<T>): Observable<T> {
    return this.parts ? query(this.parts) : defer(() => this.signedIn()).pipe(switchMap((parts) => query(parts)));
  }

  /**
   * Stops every timer and the socket, aborts every REST call in flight and writes what is pending. Once it
   * resolves, this engine sends and writes nothing more (a late answer finds its call aborted, a late write
   * is refused), so another engine may take over its store and outbox (issue 14).
   */
  async stop(): Promise<void> {
    this.parts?.socket.stop();
    this.lifetime.abort();
    // Parts still loading are stopped once loaded: they must not start anything after this.
    const parts = this.parts ?? (await this.partsLoad?.catch(() => null)) ?? null;
    await parts?.stop();
    this.storage.refuseWrites();
  }

  /**
   * Writes what is waiting to be persisted now: the state, communities included (with the receipts and
   * history writes that go in its batch), then the search index's pending changes (its own transactions). A
   * tab going away or hidden calls it: the browser ends a
   * SharedWorker with its last page (and the fallback's leader with its tab), and a batch still on its timer
   * (up to PERSIST_STREAM_DELAY_MS) would be lost with it. A stopped engine has written its last.
   */
  async flush(): Promise<void> {
    if (this.lifetime.signal.aborted || !this.parts) return;
    // The state first: a closing tab's worker may end any moment, and the chats' windows are what the next
    // start shows; the search's pending changes (its own transactions) come after it.
    const { state, search } = this.parts;
    await state.flush();
    await search.settled();
  }

  // The names of area 'engine' (api.ts): queries.

  connection(): Observable<ConnectionState> {
    return this.ofParts((parts) => parts.socket.state$);
  }

  storageStatus(): Observable<StorageStatus> {
    return this.quota.status;
  }

  outbox(): Observable<readonly OutboxEntry[]> {
    return this.ofParts((parts) => parts.outbox);
  }

  searchMessages(query: string, options: { conversationId?: number; limit?: number } = {}): Observable<MessageSearchView> {
    return this.ofParts((parts) => parts.search.search(query, options));
  }

  historyKept(): Observable<HistoryKept> {
    return this.ofParts((parts) => parts.search.historyKept.changes());
  }

  // Commands.

  async confirmPin(phone: string, pin: string): Promise<SessionView> {
    const userId = await this.sessionStore.confirmPin(phone, pin);
    let parts: SignedInParts;
    try {
      parts = await this.signedIn();
      if (parts.state.value.selfId !== userId) {
        parts.state.dispatch({ type: 'signedOut' });
        parts.state.dispatch({ type: 'signedIn', selfId: userId });
      }
    } finally {
      // The tabs see the session once the account is known (or could not be fetched), never before.
      await this.sessionStore.refreshAccount();
    }
    const { outboxQueue } = parts;
    this.loadedParts().connect();
    outboxQueue.kick();
    return this.sessionStore.current();
  }

  /**
   * The browser deleted the engine's database while it ran (Clear site data), and the store under it is an
   * empty one now (storage/reopeningStorage.ts). The token went with the data, so the session ends here as a
   * logout ends it, unsent messages and the user's settings and drafts included, and every tab sees
   * `signedOut.reason: 'dataCleared'` (docs/ui.md, "Site data cleared"). The engine keeps working on the
   * new store: the login screen, a new sign-in, the language and the Client-Token (written to it again).
   */
  async storeCleared(): Promise<void> {
    if (this.lifetime.signal.aborted) return;
    this.log('the browser deleted the engine\'s database: signing out');
    await this.parts?.outboxQueue.clear();
    await this.signOut('dataCleared');
    this.preferences.forgetAccountData();
    this.formDraftStore.forget();
    this.countryList.forget();
    await this.preferences.load();
  }

  async logout(): Promise<void> {
    await this.outboxQueue.clear();
    await this.endOnServer();
    await this.signOut();
    // Spec §4: logout also clears stored settings, countries data and drafts (messages' and forms').
    await this.storage.writeBatch([
      { store: 'settings', type: 'clear' },
      { store: 'countries', type: 'clear' },
      { store: 'drafts', type: 'clear' },
    ]);
    this.preferences.forgetAccountData();
    this.formDraftStore.forget();
    this.countryList.forget();
  }

  sendMessage(conversationId: number, input: SendInput): Promise<OutboxEntry> {
    return this.outboxQueue.add({
      conversationId,
      text: input.text,
      quotedMessageId: input.quotedMessageId ?? null,
      ...(input.file ? { file: input.file } : {}),
    });
  }

  async setHistoryKept(kept: HistoryKept): Promise<void> {
    await (await this.signedIn()).search.historyKept.set(kept);
  }

  setTabState(tabId: string, state: TabState): void {
    if (state.languages && state.languages.length > 0) this.tabLanguages = state.languages;
    const before = this.tabs.openConversations();
    const wasVisible = this.tabs.isVisible(tabId);
    this.tabs.set(tabId, state, this.clock.now());
    // Before sign-in there are no chats to follow the tabs (the parts read the tabs when they load).
    this.parts?.chats.tabsChanged(before);
    // A hidden tab may be discarded without a pagehide, its worker with it: what it saw is written now.
    if (wasVisible && !state.visible) this.flushSoon();
  }

  closeTab(tabId: string): void {
    this.tabs.remove(tabId);
    this.parts?.chats.closeTab(tabId);
    // It may have been the last tab, and its worker may end right after (see `flush`).
    this.flushSoon();
  }

  /** `flush` for a caller that cannot wait: the tab is going, so a failure is only logged. */
  private flushSoon(): void {
    void this.flush().catch((error: unknown) => this.log('saving the engine state failed', error));
  }

  call<K extends RestCallName>(name: K, ...args: Parameters<RestClient[K]>): ReturnType<RestClient[K]> {
    // A signed-in user's call before the signed-in parts loaded: it is theirs, so they load first.
    if (!this.parts && !Object.hasOwn(this.rest, name) && typeof name === 'string') {
      return this.signedIn().then((): unknown => this.call(name, ...args)) as ReturnType<RestClient[K]>;
    }
    const fn = this.rest[name] as ((...a: Parameters<RestClient[K]>) => ReturnType<RestClient[K]>) | undefined;
    // From the console any name can come: an unknown one is a refusal like any other, not a TypeError.
    if (typeof fn !== 'function') {
      return Promise.reject(engineError(String(name), 0, null, INVALID_PARAMETERS)) as ReturnType<RestClient[K]>;
    }
    return fn(...args);
  }

  crashTest(): void {
    // Thrown from a timer, so no caller catches it: the worker's unhandled-error path, as a real bug's would.
    this.clock.setTimeout(() => {
      throw new Error('Engine crash test from the debug screen');
    }, 0);
  }

  // Wiring.

  private apiBase(): string {
    return this.preferences.hostOverrides.apiBase ?? this.options.apiBase;
  }

  /**
   * Spec §7: a country may supply its own http endpoint for the PIN request; empty means the default host.
   * An API host set on the debug screen wins: it points the whole app, PIN included, at one server.
   */
  private async pinApiBase(phone: string): Promise<string | null> {
    if (this.preferences.hostOverrides.apiBase) return null;
    const http = (await this.countryList.countryOf(phone))?.endpoints.http ?? '';
    return http !== '' && http !== this.apiBase() ? http : null;
  }

  /**
   * Logout ends the token on the server (docs/ui.md "Sessions"), then here. The socket stops first, so the
   * server's closing it is not taken for a session ended elsewhere. Offline, or with no answer within
   * LOGOUT_WAIT_MS, the sign-out here goes on all the same: the server cannot be told, and the token ends
   * once it has gone unused for its idle time (SESSION_IDLE_DAYS, docs/server.md "Sessions").
   */
  private async endOnServer(): Promise<void> {
    const token = this.sessionStore.auth?.token;
    if (!token) return;
    this.parts?.socket.stop();
    this.loggingOut = true;
    const wait = new AbortController();
    const timer = this.clock.setTimeout(() => wait.abort(), LOGOUT_WAIT_MS);
    try {
      await this.rest.logout(token, { signal: wait.signal });
    } catch (error) {
      this.log('logout: the server could not be told; the token ends when it has gone unused', error);
    } finally {
      this.clock.clearTimeout(timer);
      this.loggingOut = false;
    }
  }

  /** Spec §4: a 401 or a logout clears the stored token and user id; every tab sees it at once. */
  private async signOut(reason: SignedOutReason | null = null): Promise<void> {
    if (!this.sessionStore.auth) return;
    this.parts?.socket.stop();
    this.sessionStore.forget(reason);
    // Signed in, so they are loaded, or loading (a 401 answered right after the PIN).
    await (await this.signedIn()).signedOut();
  }
}

/**
 * The engine, with the whole EngineApi on its type: its own methods (area 'engine') and the ones of its parts
 * that its constructor installs. A class cannot declare methods it gets at run time, hence the cast.
 */
export type Engine = EngineCore & DelegatedApi;
export const Engine = EngineCore as new (options: EngineOptions) => Engine;
