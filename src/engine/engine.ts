import { combineLatest, filter, map, type Observable } from 'rxjs';
import type { DeliveryMode, DeliverySettings, MuteType, WarningsAnswer } from '../protocol/api';
import type { ConversationMute, Country, Message } from '../protocol/entities';
import type {
  CountriesView,
  EngineApi,
  HostOverrides,
  Language,
  NotificationRequest,
  RestCallName,
  SendInput,
  SessionView,
  TabState,
} from './api';
import { type EngineClock, realClock } from './clock';
import { CommunityCommands } from './community/communityCommands';
import { CommunityService } from './community/service';
import { ConversationCommands } from './conversations/conversationCommands';
import { CountryList } from './session/countries';
import { engineError } from './errors';
import { LiveState } from './state/liveState';
import { Notifier } from './notifications/notifier';
import { Outbox, type OutboxEntry } from './messages/outbox';
import { loadState, signOutOps } from './storage/persistence';
import { type FormDraft, FormDraftStore, type FormDrafts } from './preferences/formDrafts';
import { Preferences } from './preferences/preferences';
import { ReceiptSender } from './messages/receiptSender';
import { createRestClient, fetchTransport, type HttpTransport, type RestClient } from './rest';
import { INVALID_PARAMETERS } from './rest/fallbacks';
import type { AppSettings, NotifyPermission } from './rules';
import { type ConnectionState, type SocketDelivery, SocketConnection, type SocketFactory } from './socket';
import type { ConversationListItem, MessageWindowView, ReceiptMarksView } from './state';
import type { EngineEffect } from './state/types';
import { type ProfileChanges, Session } from './session/session';
import { ClosableStorage } from './storage/closableStorage';
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

/**
 * The client engine (design.md §1, §3) behind EngineApi; one instance serves every tab of a browser profile.
 * It composes the parts and wires them to each other: the session, the state and its persistence, the chats
 * (conversationCommands.ts), the outbox, receipts, notifications, preferences and the communities
 * (communityCommands.ts, the queries and commands it inherits).
 */
export class Engine extends CommunityCommands implements EngineApi {
  private readonly clock: EngineClock;
  private readonly log: (message: string, detail?: unknown) => void;
  private readonly tabs = new TabRegistry();
  private readonly rest: RestClient;
  private readonly sessionStore: Session;
  private readonly preferences: Preferences;
  private readonly formDraftStore: FormDraftStore;
  private readonly countryList: CountryList;
  private readonly state: LiveState;
  private readonly chats: ConversationCommands;
  private readonly socket: SocketConnection;
  private readonly outboxQueue: Outbox;
  private readonly receiptSender: ReceiptSender;
  private readonly notifier: Notifier;
  protected readonly communityStore: CommunityService;
  /** The store as this engine writes it: closed for writes once it stopped. */
  private readonly storage: ClosableStorage;
  /** Aborts every REST call of this engine when it stops. */
  private readonly lifetime = new AbortController();

  constructor(private readonly options: EngineOptions) {
    super();
    const storage = (this.storage = new ClosableStorage(options.storage));
    const clock = (this.clock = options.clock ?? realClock);
    const log = (this.log = options.log ?? ((message, detail) => console.warn(message, detail ?? '')));
    const rest = () => this.rest;
    this.preferences = new Preferences(storage);
    this.sessionStore = new Session({ storage, rest, clock, log, pinApiBase: (phone) => this.pinApiBase(phone) });
    this.formDraftStore = new FormDraftStore(
      storage,
      this.sessionStore.changes().pipe(map((auth) => auth?.userId ?? null)),
      () => this.sessionStore.auth?.userId ?? null,
    );
    this.rest = createRestClient({
      transport: options.transport ?? fetchTransport,
      session: () => ({
        apiBase: this.apiBase(),
        token: this.sessionStore.auth?.token ?? null,
        language: this.preferences.currentLanguage,
      }),
      clientToken: () => this.preferences.clientToken,
      onUnauthorized: () => void this.signOut(),
      lifetime: this.lifetime.signal,
    });
    this.countryList = new CountryList({ storage, rest, log });
    this.state = new LiveState({
      storage,
      clock,
      log,
      openConversations: () => this.tabs.openConversations(),
      extraOps: () => this.receiptSender.takeOps(),
      onEffect: (effect) => this.run(effect),
    });
    const dispatch = this.state.dispatch.bind(this.state);
    this.chats = new ConversationCommands({ rest, state: this.state, tabs: this.tabs, clock, log });
    this.socket = new SocketConnection({
      params: () => ({
        wsBase: this.preferences.hostOverrides.wsBase ?? toWs(this.apiBase()),
        token: this.sessionStore.auth?.token ?? null,
        lastEventId: this.state.value.lastEventId,
        epoch: this.state.value.epoch || null,
      }),
      onFrame: (delivery) => this.receive(delivery),
      ...(options.socketFactory ? { factory: options.socketFactory } : {}),
      clock,
      // The engine's log, so a worker (or a test) that routes its messages sees the socket's too.
      logger: { warn: log },
      onHandshakeFailed: () => this.sessionStore.probe(),
    });
    this.outboxQueue = new Outbox({
      storage,
      rest,
      clock,
      userId: () => this.sessionStore.auth?.userId ?? null,
      onStored: (message) => dispatch({ type: 'messageStored', message }),
      onCommentStored: (comment, participants) => this.communityStore.commentStored(comment, participants),
    });
    this.receiptSender = new ReceiptSender({
      storage,
      rest,
      clock,
      signedIn: () => this.sessionStore.auth !== null,
      log,
      changed: () => this.state.schedulePersist(),
      isOpen: (conversationId) => this.tabs.openConversations().has(conversationId),
      withdrawn: ({ conversationId, messageId }) => dispatch({ type: 'readWithdrawn', conversationId, messageId }),
    });
    this.notifier = new Notifier({
      settings: () => this.preferences.currentSettings,
      state: () => this.state.value,
      tabs: this.tabs,
      now: () => clock.now(),
    });
    this.communityStore = new CommunityService({
      storage,
      rest,
      clock,
      log,
      state: () => this.state.value,
      dispatch,
      messages: (channelId) => this.messages(channelId),
      outbox: this.outbox(),
      enqueueComment: (channelId, comment, text) =>
        this.outboxQueue.add({ conversationId: channelId, text, quotedMessageId: null, comment }),
    });
    this.socket.state$.pipe(filter((s) => s === 'online')).subscribe(() => this.outboxQueue.kick());
  }

  /** Restores the stored session, state, settings and outbox, then connects when signed in. */
  async start(): Promise<void> {
    const { storage } = this;
    const [auth] = await Promise.all([this.sessionStore.read(), this.preferences.load(), this.formDraftStore.load()]);
    const state = await loadState(storage);
    await this.communityStore.load();
    this.state.restore(state);
    // The session first: the outbox and the receipts send only for the signed-in user.
    if (auth) this.sessionStore.restore(auth);
    await this.outboxQueue.load();
    await this.receiptSender.load();
    if (auth) {
      this.socket.start();
      this.chats.refreshInBackground();
      void this.sessionStore.refreshAccount();
    }
  }

  /**
   * Stops every timer and the socket, aborts every REST call in flight and writes what is pending. Once it
   * resolves, this engine sends and writes nothing more (a late answer finds its call aborted, a late write
   * is refused), so another engine may take over its store and outbox (issue 14).
   */
  async stop(): Promise<void> {
    this.socket.stop();
    this.lifetime.abort();
    const stopped = Promise.all([this.outboxQueue.stop(), this.receiptSender.stop()]);
    this.state.stop();
    this.communityStore.stop();
    await stopped;
    await this.flush();
    await this.communityStore.flush();
    this.storage.refuseWrites();
  }

  /** Writes what is waiting to be persisted now (tests, and before a worker goes away). */
  flush(): Promise<void> {
    return this.state.flush();
  }

  // Queries.

  session(): Observable<SessionView> {
    return this.sessionStore.view();
  }

  connection(): Observable<ConnectionState> {
    return this.socket.state$;
  }

  conversations(): Observable<readonly ConversationListItem[]> {
    return this.chats.conversations();
  }

  conversation(conversationId: number): Observable<ConversationListItem | null> {
    return this.chats.conversation(conversationId);
  }

  messages(conversationId: number): Observable<MessageWindowView> {
    return this.chats.messages(conversationId);
  }

  receipts(conversationId: number): Observable<ReceiptMarksView> {
    return this.chats.receipts(conversationId);
  }

  outbox(): Observable<readonly OutboxEntry[]> {
    return combineLatest([this.outboxQueue.entries, this.sessionStore.changes()]).pipe(
      map(([entries, auth]) => entries.filter((e) => e.userId === auth?.userId)),
    );
  }

  settings(): Observable<AppSettings> {
    return this.preferences.settings();
  }

  removedConversations(): Observable<number> {
    return this.chats.removed();
  }

  drafts(): Observable<Readonly<Record<number, string>>> {
    return this.preferences.drafts();
  }

  formDrafts(): Observable<FormDrafts> {
    return this.formDraftStore.drafts();
  }

  language(): Observable<Language | null> {
    return this.preferences.language();
  }

  notifications(tabId: string): Observable<NotificationRequest> {
    return this.notifier.notifications(tabId);
  }

  countries(): Observable<CountriesView> {
    return this.countryList.view();
  }

  // Session.

  requestPin(phone: string): Promise<void> {
    return this.sessionStore.requestPin(phone);
  }

  async confirmPin(phone: string, pin: string): Promise<SessionView> {
    const userId = await this.sessionStore.confirmPin(phone, pin);
    if (this.state.value.selfId !== userId) {
      this.state.dispatch({ type: 'signedOut' });
      this.state.dispatch({ type: 'signedIn', selfId: userId });
    }
    await this.sessionStore.refreshAccount();
    this.socket.start();
    this.chats.refreshInBackground();
    this.outboxQueue.kick();
    return this.sessionStore.current();
  }

  updateProfile(changes: ProfileChanges): Promise<SessionView> {
    return this.sessionStore.updateProfile(changes);
  }

  refreshProfile(): Promise<SessionView> {
    return this.sessionStore.refreshProfile();
  }

  register(nickname: string): Promise<SessionView> {
    return this.sessionStore.register(nickname);
  }

  async logout(): Promise<void> {
    await this.outboxQueue.clear();
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

  loadCountries(): Promise<Country[]> {
    return this.countryList.load();
  }

  // Conversations and messages.

  refreshConversations(): Promise<void> {
    return this.chats.refreshConversations();
  }

  openConversation(conversationId: number): Promise<void> {
    return this.chats.openConversation(conversationId);
  }

  loadOlderMessages(conversationId: number): Promise<boolean> {
    return this.chats.loadOlderMessages(conversationId);
  }

  markVisible(conversationId: number, messageId: number): void {
    this.chats.markVisible(conversationId, messageId);
  }

  sendMessage(conversationId: number, input: SendInput): Promise<OutboxEntry> {
    return this.outboxQueue.add({
      conversationId,
      text: input.text,
      quotedMessageId: input.quotedMessageId ?? null,
      ...(input.file ? { file: input.file } : {}),
    });
  }

  retrySend(localId: string): Promise<void> {
    return this.outboxQueue.retry(localId);
  }

  discardSend(localId: string): Promise<void> {
    return this.outboxQueue.discard(localId);
  }

  editMessage(conversationId: number, messageId: number, text: string): Promise<Message> {
    return this.chats.editMessage(conversationId, messageId, text);
  }

  deleteMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer> {
    return this.chats.deleteMessages(conversationId, messageIds);
  }

  hideMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer> {
    return this.chats.hideMessages(conversationId, messageIds);
  }

  react(conversationId: number, messageId: number, emoji: string, on: boolean): Promise<Message> {
    return this.chats.react(conversationId, messageId, emoji, on);
  }

  async canEdit(messageId: number): Promise<boolean> {
    return this.chats.canEdit(messageId);
  }

  async editTarget(conversationId: number): Promise<number | null> {
    return this.chats.editTarget(conversationId);
  }

  muteConversation(conversationId: number, type: MuteType | 'unmute'): Promise<ConversationMute | null> {
    return this.chats.muteConversation(conversationId, type);
  }

  setDeliverySettings(conversationId: number, mode: DeliveryMode, intervalMinutes?: number): Promise<DeliverySettings> {
    return this.chats.setDeliverySettings(conversationId, mode, intervalMinutes);
  }

  // Settings and tabs.

  setDraft(conversationId: number, text: string): Promise<void> {
    return this.preferences.setDraft(conversationId, text);
  }

  setFormDraft(key: string, draft: FormDraft | null): Promise<void> {
    return this.formDraftStore.set(key, draft);
  }

  setLanguage(language: Language): Promise<void> {
    return this.preferences.setLanguage(language);
  }

  updateSettings(patch: Partial<AppSettings>): Promise<AppSettings> {
    return this.preferences.updateSettings(patch);
  }

  setHostOverrides(overrides: HostOverrides): Promise<void> {
    return this.preferences.setHostOverrides(overrides);
  }

  setNotificationPermission(permission: NotifyPermission): void {
    this.notifier.setPermission(permission);
  }

  setTabState(tabId: string, state: TabState): void {
    const before = this.tabs.openConversations();
    this.tabs.set(tabId, state, this.clock.now());
    this.chats.tabsChanged(before);
  }

  closeTab(tabId: string): void {
    this.tabs.remove(tabId);
  }

  call<K extends RestCallName>(name: K, ...args: Parameters<RestClient[K]>): ReturnType<RestClient[K]> {
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

  /** A socket frame: into the state, and to the outbox and the communities store when it is theirs. */
  private receive(delivery: SocketDelivery): void {
    this.state.dispatch(delivery);
    if (delivery.type !== 'socket') return;
    const { frame } = delivery;
    if (frame.action === 'conversation_message') void this.outboxQueue.settle(frame.data.message);
    if (frame.action === 'channel_post_comment_added' || frame.action === 'reactions_changed') {
      this.communityStore.applyFrame(frame);
    }
    // After the store has the comment, so the pending one never leaves a gap (as with messages above).
    if (frame.action === 'channel_post_comment_added') void this.outboxQueue.settleComment(frame.data.comment);
  }

  /** What the reducer asked for besides the new state. */
  private run(effect: EngineEffect): void {
    switch (effect.type) {
      case 'sendReceipt':
        this.receiptSender.enqueue(
          { conversationId: effect.conversationId, messageId: effect.messageId, kind: effect.kind },
          effect.delayMs,
        );
        return;
      case 'refetchConversations':
        this.chats.refreshInBackground();
        return;
      case 'refetchConversation':
        this.chats.refetchConversation(effect.conversationId);
        return;
      case 'sync':
        void this.chats.resync();
        return;
      case 'conversationGone':
        this.chats.gone(effect.conversationId);
        return;
      case 'incomingMessage':
        this.notifier.incoming(effect.conversationId, effect.message);
        return;
    }
  }

  /** Spec §4: a 401 or a logout clears the stored token and user id; every tab sees it at once. */
  private async signOut(): Promise<void> {
    if (!this.sessionStore.auth) return;
    this.socket.stop();
    this.sessionStore.forget();
    this.state.dispatch({ type: 'signedOut' });
    this.communityStore.reset();
    await this.flush();
    await this.receiptSender.clear();
    await this.storage.writeBatch(signOutOps());
    this.state.storageCleared();
  }
}
