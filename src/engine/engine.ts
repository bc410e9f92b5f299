import { BehaviorSubject, combineLatest, distinctUntilChanged, filter, map, type Observable, Subject } from 'rxjs';
import type { WarningsAnswer } from '../protocol/api';
import type { Channel, Comment, Community, Country, Message, User } from '../protocol/entities';
import type {
  ChannelsView,
  CommentsView,
  CommunitiesView,
  CountriesView,
  EngineApi,
  HostOverrides,
  Language,
  NotificationRequest,
  PostsView,
  RestCallName,
  SendInput,
  SessionView,
  TabState,
} from './api';
import { type EngineClock, realClock } from './clock';
import { CommunityService } from './community/service';
import { isEngineError } from './errors';
import { Outbox, type OutboxEntry } from './outbox';
import { loadState, persistOps, STATE_META_KEYS, STATE_STORES } from './persistence';
import { ReceiptSender } from './receiptSender';
import { createRestClient, fetchTransport, type HttpTransport, type RestClient } from './rest';
import {
  type AppSettings,
  applySettings,
  canEdit,
  editTarget,
  normalizeSettings,
  notificationBody,
  type NotifyPermission,
  shouldNotify,
} from './rules';
import { type ConnectionState, SocketConnection, type SocketFactory } from './socket';
import {
  createConversationListSelector,
  createMessageWindowSelector,
  type ConversationListItem,
  type MessageWindowView,
  findMessage,
  reduce,
  selectConversation,
  windowMessages,
} from './state';
import { holdsLatest } from './state/messageStore';
import { type EngineEffect, type EngineEvent, type EngineState, initialState } from './state/types';
import type { EngineStorage, StorageOp } from './storage/storage';
import { TabRegistry } from './tabs';

export interface EngineOptions {
  storage: EngineStorage;
  /** Where the API lives by default (the page's origin in the browser). */
  apiBase: string;
  transport?: HttpTransport;
  socketFactory?: SocketFactory;
  clock?: EngineClock;
  log?: (message: string, detail?: unknown) => void;
}

interface StoredAuth {
  token: string;
  userId: number;
  account: User | null;
}

/** Writes of a burst of events are gathered this long, then written in one transaction. */
export const PERSIST_DELAY_MS = 50;

const NO_COUNTRIES: CountriesView = { countries: [], status: 'idle', error: null };

const toWs = (httpBase: string) => httpBase.replace(/^http/, 'ws');

/**
 * The client engine (design.md §1, §3): session, REST, socket, state, store, outbox and receipts, behind
 * EngineApi. One instance serves every tab of a browser profile.
 */
export class Engine implements EngineApi {
  private readonly clock: EngineClock;
  private readonly log: (message: string, detail?: unknown) => void;
  private readonly state$ = new BehaviorSubject<EngineState>(initialState());
  private readonly auth$ = new BehaviorSubject<StoredAuth | null>(null);
  private readonly settings$ = new BehaviorSubject<AppSettings>(normalizeSettings(null));
  private readonly removed$ = new Subject<number>();
  private readonly drafts$ = new BehaviorSubject<Readonly<Record<number, string>>>({});
  private readonly language$ = new BehaviorSubject<Language | null>(null);
  private readonly notify$ = new Subject<{ tabId: string; request: NotificationRequest }>();
  private readonly tabs = new TabRegistry();
  private readonly rest: RestClient;
  private readonly socket: SocketConnection;
  private readonly outboxQueue: Outbox;
  private readonly receipts: ReceiptSender;
  private readonly communityStore: CommunityService;
  private lastHandshakeProbe = -Infinity;
  private hosts: HostOverrides = { apiBase: null, wsBase: null };
  private permission: NotifyPermission = 'default';
  private persisted: EngineState = initialState();
  private persistTimer: unknown = null;
  private pendingWrite: Promise<void> = Promise.resolve();
  private readonly countries$ = new BehaviorSubject<CountriesView>(NO_COUNTRIES);
  private readonly listSelector = createConversationListSelector();

  constructor(private readonly options: EngineOptions) {
    this.clock = options.clock ?? realClock;
    this.log = options.log ?? ((message, detail) => console.warn(message, detail ?? ''));
    this.rest = createRestClient({
      transport: options.transport ?? fetchTransport,
      session: () => ({ apiBase: this.apiBase(), token: this.auth$.value?.token ?? null }),
      clientToken: 'web',
      onUnauthorized: () => void this.signOut(),
    });
    this.socket = new SocketConnection({
      params: () => {
        const s = this.state$.value;
        return {
          wsBase: this.hosts.wsBase ?? toWs(this.apiBase()),
          token: this.auth$.value?.token ?? null,
          lastEventId: s.lastEventId,
          epoch: s.epoch || null,
        };
      },
      onFrame: (delivery) => {
        this.dispatch(delivery);
        if (delivery.type !== 'socket') return;
        const { frame } = delivery;
        if (frame.action === 'conversation_message') void this.outboxQueue.settle(frame.data.message);
        if (frame.action === 'channel_post_comment_added' || frame.action === 'reactions_changed') {
          this.communityStore.applyFrame(frame);
        }
      },
      ...(options.socketFactory ? { factory: options.socketFactory } : {}),
      clock: this.clock,
      onHandshakeFailed: () => this.probeSession(),
    });
    this.outboxQueue = new Outbox({
      storage: options.storage,
      rest: () => this.rest,
      clock: this.clock,
      userId: () => this.auth$.value?.userId ?? null,
      onStored: (message) => this.dispatch({ type: 'messageStored', message }),
    });
    this.receipts = new ReceiptSender({
      storage: options.storage,
      rest: () => this.rest,
      clock: this.clock,
      signedIn: () => this.auth$.value !== null,
      log: this.log,
      changed: () => this.schedulePersist(),
      isOpen: (conversationId) => this.tabs.openConversations().has(conversationId),
      withdrawn: (receipt) =>
        this.dispatch({ type: 'readWithdrawn', conversationId: receipt.conversationId, messageId: receipt.messageId }),
    });
    this.communityStore = new CommunityService({
      storage: options.storage,
      rest: () => this.rest,
      clock: this.clock,
      log: this.log,
      state: () => this.state$.value,
      dispatch: (event) => this.dispatch(event),
      messages: (channelId) => this.messages(channelId),
    });
    this.socket.state$.pipe(filter((s) => s === 'online')).subscribe(() => this.outboxQueue.kick());
  }

  /** Restores the stored session, state, settings and outbox, then connects when signed in. */
  async start(): Promise<void> {
    const { storage } = this.options;
    const [auth, settings, hosts, drafts, language] = await Promise.all([
      storage.get<StoredAuth>('session', 'auth'),
      storage.get<Partial<AppSettings>>('settings', 'app'),
      storage.get<HostOverrides>('meta', 'hosts'),
      storage.getAll<string>('drafts'),
      storage.get<Language>('meta', 'language'),
    ]);
    if (hosts) this.hosts = hosts;
    this.drafts$.next(Object.fromEntries(drafts.map((d) => [Number(d.key), d.value])));
    if (language === 'en' || language === 'sv') this.language$.next(language);
    this.settings$.next(normalizeSettings(settings));
    const state = await loadState(storage);
    await this.communityStore.load();
    this.persisted = state;
    this.state$.next(state);
    // The session first: the outbox and the receipts send only for the signed-in user.
    if (auth) this.auth$.next(auth);
    await this.outboxQueue.load();
    await this.receipts.load();
    if (auth) {
      this.socket.start();
      this.refreshInBackground();
      void this.refreshAccount();
    }
  }

  /** Stops every timer and the socket, and writes what is pending; a stopped engine sends nothing more. */
  async stop(): Promise<void> {
    this.socket.stop();
    this.outboxQueue.stop();
    this.receipts.stop();
    await this.flush();
    await this.communityStore.flush();
  }

  /** Writes what is waiting to be persisted now (tests, and before a worker goes away). */
  async flush(): Promise<void> {
    if (this.persistTimer !== null) {
      this.clock.clearTimeout(this.persistTimer);
      this.persistTimer = null;
      this.writeState();
    }
    await this.pendingWrite;
  }

  // Queries.

  session(): Observable<SessionView> {
    return this.auth$.pipe(
      map((auth) => this.sessionView(auth)),
      distinctUntilChanged((a, b) => JSON.stringify(a) === JSON.stringify(b)),
    );
  }

  connection(): Observable<ConnectionState> {
    return this.socket.state$;
  }

  conversations(): Observable<readonly ConversationListItem[]> {
    return this.state$.pipe(map(this.listSelector), distinctUntilChanged());
  }

  conversation(conversationId: number): Observable<ConversationListItem | null> {
    return this.state$.pipe(
      map((s) => selectConversation(s, conversationId)),
      distinctUntilChanged(
        (a, b) => a?.conversation === b?.conversation && a?.unreadCount === b?.unreadCount && a?.preview === b?.preview,
      ),
    );
  }

  messages(conversationId: number): Observable<MessageWindowView> {
    return this.state$.pipe(map(createMessageWindowSelector(conversationId)), distinctUntilChanged());
  }

  outbox(): Observable<readonly OutboxEntry[]> {
    return combineLatest([this.outboxQueue.entries, this.auth$]).pipe(
      map(([entries, auth]) => entries.filter((e) => e.userId === auth?.userId)),
    );
  }

  settings(): Observable<AppSettings> {
    return this.settings$;
  }

  removedConversations(): Observable<number> {
    return this.removed$;
  }

  drafts(): Observable<Readonly<Record<number, string>>> {
    return this.drafts$;
  }

  language(): Observable<Language | null> {
    return this.language$;
  }

  notifications(tabId: string): Observable<NotificationRequest> {
    return this.notify$.pipe(
      filter((n) => n.tabId === tabId),
      map((n) => n.request),
    );
  }

  // Session.

  async requestPin(phone: string): Promise<void> {
    const answer = await this.rest.requestPin(phone);
    if (answer.status !== 'sent') throw new Error('Failed to request the PIN code');
  }

  async confirmPin(phone: string, pin: string): Promise<SessionView> {
    const { token, user_id: userId } = await this.rest.confirmPin(phone, pin);
    // Stored before anything else: the PIN is single use, so a reload from here on must stay signed in.
    await this.saveAuth({ token, userId, account: null });
    if (this.state$.value.selfId !== userId) {
      this.dispatch({ type: 'signedOut' });
      this.dispatch({ type: 'signedIn', selfId: userId });
    }
    await this.refreshAccount();
    this.socket.start();
    this.refreshInBackground();
    this.outboxQueue.kick();
    return this.sessionView(this.auth$.value);
  }

  async register(nickname: string): Promise<SessionView> {
    const { account } = await this.rest.register(nickname);
    const auth = this.auth$.value;
    if (auth) await this.saveAuth({ ...auth, account });
    return this.sessionView(this.auth$.value);
  }

  async logout(): Promise<void> {
    await this.outboxQueue.clear();
    await this.signOut();
    // Spec §4: logout also clears stored settings, countries data and drafts.
    await this.options.storage.writeBatch([
      { store: 'settings', type: 'clear' },
      { store: 'countries', type: 'clear' },
      { store: 'drafts', type: 'clear' },
    ]);
    this.settings$.next(normalizeSettings(null));
    this.drafts$.next({});
    this.countries$.next(NO_COUNTRIES);
  }

  countries(): Observable<CountriesView> {
    return this.countries$;
  }

  async loadCountries(): Promise<Country[]> {
    const known = this.countries$.value;
    if (known.status === 'loaded') return [...known.countries];
    const cached = await this.options.storage.get<Country[]>('countries', 'all');
    if (cached) {
      this.countries$.next({ countries: cached, status: 'loaded', error: null });
      void this.rest
        .getCountries()
        .then(({ countries }) => this.cacheCountries(countries))
        .catch((error: unknown) => this.log('countries refresh failed', error));
      return cached;
    }
    this.countries$.next({ ...known, status: 'loading', error: null });
    try {
      const { countries } = await this.rest.getCountries();
      await this.cacheCountries(countries);
      return countries;
    } catch (error) {
      this.countries$.next({ countries: [], status: 'error', error: isEngineError(error) ? error : null });
      throw error;
    }
  }

  // Conversations and messages.

  async refreshConversations(): Promise<void> {
    const { conversations } = await this.rest.getConversations({ messageCount: 1 });
    this.dispatch({ type: 'conversationsLoaded', conversations: conversations.map((c) => c.conversation) });
    // A cached window that the list shows to be behind (messages came while this engine was away) would
    // take no new message until reloaded: reload the chats that are on screen.
    for (const id of this.tabs.openConversations()) this.reloadIfBehind(id);
  }

  async openConversation(conversationId: number): Promise<void> {
    await this.loadLatest(conversationId);
    this.dispatch({ type: 'conversationOpened', conversationId });
  }

  /** The latest page; a chat that is open in a tab when it arrives is read then (the reducer sees to it). */
  private async loadLatest(conversationId: number): Promise<void> {
    await this.loadLatestPage(conversationId);
    // A message that came by socket while the page was on its way had no window to join (a chat never
    // opened has none), so the page ends before the conversation's last message: the next answer has it.
    if (!holdsLatest(this.state$.value, conversationId)) await this.loadLatestPage(conversationId);
  }

  private async loadLatestPage(conversationId: number): Promise<void> {
    const { messages } = await this.rest.getMessages(conversationId, { count: 20 });
    this.dispatch({ type: 'messagesLoaded', conversationId, messages, older: false, pageSize: 20 });
  }

  async loadOlderMessages(conversationId: number): Promise<boolean> {
    const window = this.state$.value.windows[conversationId];
    const oldest = window?.ids[0];
    if (!window || oldest === undefined || !window.hasOlder) return false;
    const { messages } = await this.rest.getMessages(conversationId, { count: 20, before: oldest });
    this.dispatch({ type: 'messagesLoaded', conversationId, messages, older: true, pageSize: 20 });
    return messages.length > 0;
  }

  markVisible(conversationId: number, messageId: number): void {
    this.dispatch({ type: 'messageVisible', conversationId, messageId });
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

  async editMessage(conversationId: number, messageId: number, text: string): Promise<Message> {
    const { message } = await this.rest.editMessage(conversationId, messageId, text);
    this.dispatch({ type: 'messageStored', message });
    return message;
  }

  async deleteMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer> {
    const answer = await this.rest.deleteMessages(conversationId, messageIds);
    this.dispatch({ type: 'messagesDeleted', conversationId, messageIds: answer.message_ids });
    return answer;
  }

  async hideMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer> {
    const answer = await this.rest.hideMessages(conversationId, messageIds);
    this.dispatch({ type: 'messagesDeleted', conversationId, messageIds: answer.message_ids });
    return answer;
  }

  async react(conversationId: number, messageId: number, emoji: string, on: boolean): Promise<Message> {
    const { message } = on
      ? await this.rest.addReaction(conversationId, messageId, emoji)
      : await this.rest.removeReaction(conversationId, messageId, emoji);
    this.dispatch({ type: 'messageStored', message });
    return message;
  }

  async canEdit(messageId: number): Promise<boolean> {
    const message = findMessage(this.state$.value, messageId);
    return message ? canEdit(message, this.state$.value.selfId, this.clock.now()) : false;
  }

  async editTarget(conversationId: number): Promise<number | null> {
    const s = this.state$.value;
    return editTarget(windowMessages(s, conversationId), s.selfId, this.clock.now())?.id ?? null;
  }

  // Settings and tabs.

  async setDraft(conversationId: number, text: string): Promise<void> {
    const current = this.drafts$.value;
    const blank = text.trim() === '';
    if (blank ? !(conversationId in current) : current[conversationId] === text) return;
    const key = String(conversationId);
    await this.options.storage.writeBatch([
      blank ? { store: 'drafts', type: 'delete', key } : { store: 'drafts', type: 'put', key, value: text },
    ]);
    const next = { ...current };
    if (blank) delete next[conversationId];
    else next[conversationId] = text;
    this.drafts$.next(next);
  }

  async setLanguage(language: Language): Promise<void> {
    if (language !== 'en' && language !== 'sv') throw new Error(`Unknown language: ${String(language)}`);
    // Kept in meta, which outlives a session: the language is the device's, not the account's.
    await this.options.storage.writeBatch([{ store: 'meta', type: 'put', key: 'language', value: language }]);
    this.language$.next(language);
  }

  async updateSettings(patch: Partial<AppSettings>): Promise<AppSettings> {
    const next = applySettings(this.settings$.value, patch);
    if (next !== this.settings$.value) {
      await this.options.storage.writeBatch([{ store: 'settings', type: 'put', key: 'app', value: next }]);
      this.settings$.next(next);
    }
    return next;
  }

  async setHostOverrides(overrides: HostOverrides): Promise<void> {
    this.hosts = overrides;
    await this.options.storage.writeBatch([{ store: 'meta', type: 'put', key: 'hosts', value: overrides }]);
  }

  setNotificationPermission(permission: NotifyPermission): void {
    this.permission = permission;
  }

  setTabState(tabId: string, state: TabState): void {
    const before = this.tabs.openConversations();
    this.tabs.set(tabId, state, this.clock.now());
    // A chat that comes into view (opened, or its tab shown again) is read now (spec §4 "on chat open").
    for (const id of this.tabs.openConversations()) {
      if (before.has(id) || !this.state$.value.windows[id]) continue;
      if (holdsLatest(this.state$.value, id)) this.dispatch({ type: 'conversationOpened', conversationId: id });
      else this.reloadIfBehind(id);
    }
  }

  closeTab(tabId: string): void {
    this.tabs.remove(tabId);
  }

  // Communities, channels, posts and comments.

  communities(): Observable<CommunitiesView> {
    return this.communityStore.communities();
  }

  community(communityId: number): Observable<Community | null> {
    return this.communityStore.community(communityId);
  }

  channels(communityId: number): Observable<ChannelsView> {
    return this.communityStore.channels(communityId);
  }

  channel(channelId: number): Observable<Channel | null> {
    return this.communityStore.channel(channelId);
  }

  posts(channelId: number): Observable<PostsView> {
    return this.communityStore.posts(channelId);
  }

  comments(channelId: number, postId: number, parentCommentId: number | null = null): Observable<CommentsView> {
    void channelId;
    return this.communityStore.comments(postId, parentCommentId);
  }

  refreshCommunities(): Promise<Community[]> {
    return this.communityStore.refreshCommunities();
  }

  searchCommunities(query: string): Promise<Community[]> {
    return this.communityStore.searchCommunities(query);
  }

  openCommunity(communityId: number): Promise<Community> {
    return this.communityStore.openCommunity(communityId);
  }

  joinCommunity(communityId: number): Promise<Community> {
    return this.communityStore.joinCommunity(communityId);
  }

  leaveCommunity(communityId: number): Promise<Community> {
    return this.communityStore.leaveCommunity(communityId);
  }

  loadChannels(communityId: number): Promise<Channel[]> {
    return this.communityStore.loadChannels(communityId);
  }

  loadChannel(channelId: number | string): Promise<Channel> {
    return this.communityStore.loadChannel(channelId);
  }

  joinChannel(channelId: number): Promise<Channel> {
    return this.communityStore.joinChannel(channelId);
  }

  leaveChannel(channelId: number): Promise<Channel> {
    return this.communityStore.leaveChannel(channelId);
  }

  loadPosts(channelId: number): Promise<void> {
    return this.communityStore.loadPosts(channelId);
  }

  loadOlderPosts(channelId: number): Promise<boolean> {
    return this.communityStore.loadOlderPosts(channelId);
  }

  createPost(channelId: number, input: SendInput): Promise<Message> {
    return this.communityStore.createPost(channelId, input);
  }

  reactToPost(channelId: number, postId: number, emoji: string, on: boolean): Promise<Message> {
    return this.communityStore.reactToPost(channelId, postId, emoji, on);
  }

  loadComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<void> {
    return this.communityStore.loadComments(channelId, postId, parentCommentId);
  }

  loadOlderComments(channelId: number, postId: number, parentCommentId: number | null = null): Promise<boolean> {
    return this.communityStore.loadOlderComments(channelId, postId, parentCommentId);
  }

  addComment(channelId: number, postId: number, text: string, parentCommentId: number | null = null): Promise<Comment> {
    return this.communityStore.addComment(channelId, postId, text, parentCommentId);
  }

  reactToComment(channelId: number, postId: number, commentId: number, emoji: string, on: boolean): Promise<Comment> {
    return this.communityStore.reactToComment(channelId, postId, commentId, emoji, on);
  }

  call<K extends RestCallName>(name: K, ...args: Parameters<RestClient[K]>): ReturnType<RestClient[K]> {
    const fn = this.rest[name] as (...a: Parameters<RestClient[K]>) => ReturnType<RestClient[K]>;
    return fn(...args);
  }

  // Internals.

  private reloadIfBehind(conversationId: number): void {
    const state = this.state$.value;
    if (!state.windows[conversationId] || holdsLatest(state, conversationId)) return;
    void this.loadLatest(conversationId).catch((e: unknown) => this.log('reloading a chat failed', e));
  }

  private refreshInBackground(): void {
    void this.refreshConversations().catch((e: unknown) => this.log('conversation list refresh failed', e));
  }

  /** The socket was refused: at most every 30 s, ask the API whether the token still works (a 401 signs out). */
  private probeSession(): void {
    const now = this.clock.now();
    if (!this.auth$.value || now - this.lastHandshakeProbe < 30_000) return;
    this.lastHandshakeProbe = now;
    void this.rest.getMe().catch(() => undefined);
  }

  private apiBase(): string {
    return this.hosts.apiBase ?? this.options.apiBase;
  }

  private sessionView(auth: StoredAuth | null): SessionView {
    if (!auth) return { status: 'unauthenticated' };
    const account = auth.account;
    const phone = account?.phone_nr ?? '';
    const countryCode = account?.country_code ?? '';
    if (!account || account.nickname === '') return { status: 'needsNickname', userId: auth.userId, phone, countryCode };
    return { status: 'ready', userId: auth.userId, nickname: account.nickname, phone, countryCode };
  }

  private async refreshAccount(): Promise<void> {
    try {
      const { account } = await this.rest.getMe();
      const auth = this.auth$.value;
      if (auth) await this.saveAuth({ ...auth, account });
    } catch (error) {
      this.log('profile refresh failed', error);
    }
  }

  private async saveAuth(auth: StoredAuth): Promise<void> {
    await this.options.storage.writeBatch([{ store: 'session', type: 'put', key: 'auth', value: auth }]);
    this.auth$.next(auth);
  }

  private async cacheCountries(countries: Country[]): Promise<void> {
    this.countries$.next({ countries, status: 'loaded', error: null });
    await this.options.storage.writeBatch([{ store: 'countries', type: 'put', key: 'all', value: countries }]);
  }

  /** Spec §4: a 401 or a logout clears the stored token and user id; every tab sees it at once. */
  private async signOut(): Promise<void> {
    if (!this.auth$.value) return;
    this.socket.stop();
    this.auth$.next(null);
    this.dispatch({ type: 'signedOut' });
    this.communityStore.reset();
    await this.flush();
    await this.receipts.clear();
    const ops: StorageOp[] = [
      { store: 'session', type: 'clear' },
      ...STATE_STORES.map((store) => ({ store, type: 'clear' }) as StorageOp),
      // meta also holds the host overrides of the debug screen, which outlive a session.
      ...STATE_META_KEYS.map((key) => ({ store: 'meta', type: 'delete', key }) as StorageOp),
    ];
    await this.options.storage.writeBatch(ops);
    this.persisted = initialState();
  }

  private dispatch(event: EngineEvent): void {
    const { state, effects } = reduce(this.state$.value, event, {
      openConversations: this.tabs.openConversations(),
      now: this.clock.now(),
    });
    if (state !== this.state$.value) {
      this.state$.next(state);
      this.schedulePersist();
    }
    for (const effect of effects) this.run(effect);
  }

  private schedulePersist(): void {
    if (this.persistTimer !== null) return;
    this.persistTimer = this.clock.setTimeout(() => {
      this.persistTimer = null;
      this.writeState();
    }, PERSIST_DELAY_MS);
  }

  private writeState(): void {
    const next = this.state$.value;
    const ops = [...persistOps(this.persisted, next), ...this.receipts.takeOps()];
    this.persisted = next;
    if (ops.length === 0) return;
    this.pendingWrite = this.pendingWrite
      .then(() => this.options.storage.writeBatch(ops))
      .catch((error: unknown) => this.log('saving the engine state failed', error));
  }

  private run(effect: EngineEffect): void {
    switch (effect.type) {
      case 'sendReceipt':
        this.receipts.enqueue(
          { conversationId: effect.conversationId, messageId: effect.messageId, kind: effect.kind },
          effect.delayMs,
        );
        return;
      case 'refetchConversations':
        this.refreshInBackground();
        return;
      case 'refetchConversation':
        void this.rest
          .getConversation(effect.conversationId, { messageCount: 0 })
          .then(({ conversation }) => this.dispatch({ type: 'conversationLoaded', conversation }))
          .catch((e: unknown) => this.log('conversation refresh failed', e));
        return;
      case 'sync':
        void this.resync();
        return;
      case 'conversationGone':
        this.removed$.next(effect.conversationId);
        return;
      case 'incomingMessage':
        this.maybeNotify(effect.conversationId, effect.message);
        return;
    }
  }

  /** need_sync or a gap: the list again, and the latest page of every chat open in a tab. */
  private async resync(): Promise<void> {
    try {
      await this.refreshConversations();
      // Not `openConversation`: a chat closed while the sync runs must not be marked read by it.
      for (const id of this.tabs.openConversations()) await this.loadLatest(id);
    } catch (error) {
      this.log('sync failed', error);
    }
  }

  private maybeNotify(conversationId: number, message: Message): void {
    const settings = this.settings$.value;
    const selfId = this.state$.value.selfId;
    if (
      !shouldNotify({
        message,
        selfId,
        settings,
        permission: this.permission,
        openVisibleFocused: this.tabs.inView(conversationId),
      })
    ) {
      return;
    }
    const tabId = this.tabs.notificationTarget();
    if (tabId === null) return;
    const conversation = this.state$.value.conversations[conversationId];
    this.notify$.next({
      tabId,
      request: {
        conversationId,
        messageId: message.id,
        title: conversation?.name ?? '',
        body: settings.notificationsShowPreview ? notificationBody(message.message) : '',
        playSound: settings.incomingMessagesSound,
      },
    });
  }
}
