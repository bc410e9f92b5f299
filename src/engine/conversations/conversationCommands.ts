import { defer, distinctUntilChanged, finalize, map, type Observable, Subject, tap } from 'rxjs';
import {
  DELIVERY_MODES,
  type DeliveryMode,
  type DeliverySettings,
  MUTE_TYPES,
  type MuteType,
  type WarningsAnswer,
} from '../../protocol/api';
import type { ConversationMute, Message } from '../../protocol/entities';
import type { EngineClock } from '../clock';
import { engineError, isEngineError, isNetworkError } from '../errors';
import type { LiveState } from '../state/liveState';
import type { RestClient } from '../rest';
import { INVALID_CONVERSATION_ID, INVALID_PARAMETERS } from '../rest/fallbacks';
import { canEdit, editTarget } from '../rules';
import {
  createConversationListSelector,
  createMessageWindowSelector,
  createReceiptMarksSelector,
  findMessage,
  selectConversation,
  windowMessages,
} from '../state';
import { holdsLatest } from '../state/messageStore';
import { unreadCount } from '../state/unread';
import { countsAsUnread } from '../rules/unread';
import type { EngineStorage } from '../storage/storage';
import type { WriteBatch } from '../storage/batchedWriter';
import type { TabRegistry } from '../tabs/tabs';
import type {
  ConversationListItem,
  FirstUnread,
  MessageViewport,
  MessageWindowView,
  OpenOptions,
  PresenceView,
  ReceiptMarksView,
} from '../contract/types';
import { History, PAGE_SIZE } from './history';

/** At most this many older pages are loaded to reach the first unread message when the read point is unknown. */
const UNREAD_PAGES = 10;

/** The browser's IANA time zone, as mutes are set in (the server assumes UTC without one). */
function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export interface ConversationCommandsOptions {
  rest: () => RestClient;
  state: LiveState;
  storage: EngineStorage;
  tabs: TabRegistry;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
}

/**
 * The conversation list and the chats (spec §4): their queries, the REST commands whose answers go into
 * the state, and keeping the chats that are on screen up to date.
 */
export class ConversationCommands {
  private readonly listSelector = createConversationListSelector();
  private readonly removed$ = new Subject<number>();
  /** Subscriptions to each chat's messages: a window someone watches is kept current even when no tab has it open. */
  private readonly watched = new Map<number, number>();
  /** Chats whose latest page is being reloaded because their window was behind (one reload at a time). */
  private readonly reloading = new Set<number>();
  /** Prefetching and trimming each chat's window around its readers (issue 11). */
  private readonly history: History;

  constructor(private readonly options: ConversationCommandsOptions) {
    this.history = new History({ ...options, reloadLatest: (id) => this.loadLatest(id) });
  }

  /** A new engine: pages an earlier one trimmed off its windows are not known to this one. */
  start(): Promise<void> {
    return this.history.spill.clear();
  }

  /** The trimmed pages' pending writes, for the state's next batch (LiveState `extraOps`). */
  historyOps(): WriteBatch {
    return this.history.spill.takeOps();
  }

  // Queries.

  conversations(): Observable<readonly ConversationListItem[]> {
    return this.options.state.state$.pipe(map(this.listSelector), distinctUntilChanged());
  }

  conversation(conversationId: number): Observable<ConversationListItem | null> {
    return this.options.state.state$.pipe(
      map((s) => selectConversation(s, conversationId)),
      distinctUntilChanged(
        (a, b) => a?.conversation === b?.conversation && a?.unreadCount === b?.unreadCount && a?.preview === b?.preview,
      ),
    );
  }

  /**
   * A chat's window. Subscribing to a window the list shows to be behind (messages came while this engine
   * was away, or while nobody watched it) reloads its latest page, since a window that is behind takes no
   * live message; while subscribed, every list refresh keeps it current.
   */
  messages(conversationId: number): Observable<MessageWindowView> {
    return defer(() => {
      this.watched.set(conversationId, (this.watched.get(conversationId) ?? 0) + 1);
      this.reloadIfBehind(conversationId);
      return this.options.state.state$.pipe(
        map(createMessageWindowSelector(conversationId)),
        distinctUntilChanged(),
        finalize(() => {
          const count = (this.watched.get(conversationId) ?? 1) - 1;
          if (count > 0) this.watched.set(conversationId, count);
          else this.watched.delete(conversationId);
        }),
      );
    });
  }

  /** Receipts others sent for the user's messages in this chat, by message id (delivered/read ticks). */
  receipts(conversationId: number): Observable<ReceiptMarksView> {
    return this.options.state.state$.pipe(map(createReceiptMarksSelector(conversationId)), distinctUntilChanged());
  }

  /**
   * A person's presence as last announced (`user_presence`), or null when nothing is known. The event tells
   * only changes and is not replayed, so whenever nothing is known of someone who is watched — a first
   * subscriber, or after a reconnect, which forgets what was known (`socketLoaded`) — the server is asked
   * (`GET /v1/users/{id}/presence`, issue 23); a failure leaves it null (presence is a hint).
   */
  presence(userId: number): Observable<PresenceView | null> {
    return this.options.state.state$.pipe(
      map((s) => s.presence[userId]),
      distinctUntilChanged(),
      tap((known) => {
        if (known === undefined) this.askPresence(userId);
      }),
      map((p) => (p ? { online: p.online, lastSeen: Number(p.lastSeen) || 0 } : null)),
    );
  }

  /** People whose presence is being asked for: one request at a time per person, however many watch them. */
  private readonly presenceAsking = new Set<number>();

  private askPresence(userId: number): void {
    if (this.presenceAsking.has(userId)) return;
    this.presenceAsking.add(userId);
    const { state } = this.options;
    const round = state.value.presenceRound;
    this.options
      .rest()
      .getPresence(userId)
      .then(
        (answer) => state.dispatch({ type: 'presenceLoaded', userId, online: answer.online, lastSeen: answer.last_seen, round }),
        (error: unknown) => this.options.log('presence not loaded', error),
      )
      .finally(() => {
        this.presenceAsking.delete(userId);
        // The socket reconnected while this was asked: the answer was dropped as stale, so ask again.
        if (state.value.presenceRound !== round && state.value.presence[userId] === undefined) this.askPresence(userId);
      });
  }

  /** Conversations the signed-in user left or was removed from. */
  removedConversations(): Observable<number> {
    return this.removed$;
  }

  // Commands.

  async refreshConversations(): Promise<void> {
    const { conversations } = await this.options.rest().getConversations({ messageCount: 1 });
    this.options.state.dispatch({ type: 'conversationsLoaded', conversations: conversations.map((c) => c.conversation) });
    // A cached window that the list shows to be behind (messages came while this engine was away) would
    // take no new message until reloaded: reload the chats that are on screen or watched. The others
    // reload when they are next opened or subscribed to.
    for (const id of this.keptCurrent()) this.reloadIfBehind(id);
  }

  /**
   * Loads the chat's latest page, and the chat itself when this engine does not know it yet (opened by its
   * URL before the list came, or while the list cannot load), so a chat that cannot load rejects with the
   * call that failed ('Failed to fetch conversation' or '… messages'; a 404 for one that is not the user's).
   */
  async openConversation(conversationId: number, options?: OpenOptions): Promise<FirstUnread | null> {
    const atUnread = options?.atUnread === true;
    // Where the unread messages begin is taken before anything loads: the reader's own marks may move it soon after.
    const unread = atUnread ? this.unreadNow(conversationId) : null;
    const known = this.options.state.value.conversations[conversationId] !== undefined;
    await Promise.all([known ? undefined : this.loadConversation(conversationId), this.loadLatest(conversationId)]);
    const first = atUnread ? await this.reachFirstUnread(conversationId, unread ?? this.unreadNow(conversationId)) : null;
    // Read (spec §4), unless a tab reads the chat as its reader sees it (the reducer's readsAsSeen).
    this.options.state.dispatch({ type: 'conversationOpened', conversationId });
    // Receipts that came while this engine was away (message_dlr2 is not replayed past a need_sync).
    void this.loadReceipts(conversationId);
    return first;
  }

  /** The chat's unread count as shown, and its read point when this engine knows it (null: it does not). */
  private unreadNow(conversationId: number): { count: number; readPoint: number | null } | null {
    const state = this.options.state.value;
    const conversation = state.conversations[conversationId];
    if (!conversation) return null;
    const record = state.unread[conversationId];
    const count = unreadCount(conversation, record);
    const readPoint = record && record.lastReadMessageId > 0 && record.lastReadMessageId < record.lastReceivedMessageId ? record.lastReadMessageId : null;
    return { count, readPoint };
  }

  /**
   * Loads the chat's first unread message and answers it (docs/ui.md, "Opening at the first unread message").
   * With a known read point, the first message of someone else after it: the page around the read point becomes
   * the window (`History.openAt`) when the latest page does not reach back to it. Without one (a new sign-in:
   * the server does not say where its read marker is), the unread count's message counted back from the latest,
   * older pages loaded until it is there, at most UNREAD_PAGES of them (beyond, the oldest unread one loaded).
   */
  private async reachFirstUnread(
    conversationId: number,
    unread: { count: number; readPoint: number | null } | null,
  ): Promise<FirstUnread | null> {
    if (!unread || unread.count <= 0) return null;
    const { state } = this.options;
    const { count, readPoint } = unread;
    const counted = (m: Message) => countsAsUnread(m, state.value.selfId);
    if (readPoint !== null) {
      const window = state.value.windows[conversationId];
      const oldest = window?.ids[0];
      if (window?.hasOlder === true && (oldest === undefined || oldest > readPoint)) await this.history.openAt(conversationId, readPoint);
      const unreadOnes = windowMessages(state.value, conversationId).filter((m) => m.id > readPoint && counted(m));
      const first = unreadOnes[0];
      // Loaded from the read point to the latest, they are counted exactly (a list snapshot taken before a burst
      // but read after its first live messages can leave the kept count short).
      const exact = holdsLatest(state.value, conversationId) && (state.value.windows[conversationId]?.ids[0] ?? Infinity) <= readPoint;
      return first ? { messageId: first.id, count: exact ? unreadOnes.length : count } : null;
    }
    for (let pages = 0; ; pages++) {
      const messages = windowMessages(state.value, conversationId);
      let seen = 0;
      let oldestUnread: Message | undefined;
      for (let i = messages.length - 1; i >= 0 && seen < count; i--) {
        const message = messages[i] as Message;
        if (!counted(message)) continue;
        seen += 1;
        oldestUnread = message;
      }
      const more = state.value.windows[conversationId]?.hasOlder === true;
      if (seen >= count || !more || pages >= UNREAD_PAGES) return oldestUnread ? { messageId: oldestUnread.id, count } : null;
      if (!(await this.history.loadOlder(conversationId))) return oldestUnread ? { messageId: oldestUnread.id, count } : null;
    }
  }

  /**
   * Resolves when the chat is one the engine knows, asking the server for it when it is not in the list yet
   * (a chat made in another browser a moment ago). A chat the server does not give the user rejects with
   * "Invalid conversation ID provided" (its status: 404, 403), so nothing is queued for a chat that is not
   * there (docs/ui.md "Sending"); an unanswered ask (offline) lets the send be queued.
   */
  async requireKnown(call: 'sendMessage', conversationId: number): Promise<void> {
    if (!Number.isSafeInteger(conversationId) || conversationId <= 0) {
      throw engineError(call, 400, null, INVALID_CONVERSATION_ID);
    }
    if (this.options.state.value.conversations[conversationId] !== undefined) return;
    try {
      await this.loadConversation(conversationId);
    } catch (error) {
      if (!isEngineError(error)) throw error;
      // Unanswered (offline): the send is queued as any offline send is, never lost; the server judges it later.
      if (isNetworkError(error)) return;
      throw engineError(call, error.status, null, INVALID_CONVERSATION_ID);
    }
  }

  /**
   * Opens the chat at a message (a search hit, issue 13): the page around it becomes the window (see
   * `History.openAt`), and the chat counts as opened (read, spec §4), as from the chats list.
   */
  async openConversationAt(conversationId: number, messageId: number): Promise<void> {
    if (![conversationId, messageId].every((id) => Number.isSafeInteger(id) && id > 0)) {
      throw engineError('openConversationAt', 400, null, INVALID_PARAMETERS);
    }
    if (this.options.state.value.conversations[conversationId] === undefined) await this.loadConversation(conversationId);
    await this.history.openAt(conversationId, messageId);
    this.options.state.dispatch({ type: 'conversationOpened', conversationId });
    void this.loadReceipts(conversationId);
  }

  /**
   * The first message at or after the start of `day` (YYYY-MM-DD, local midnight: the engine's worker has the
   * browser's time zone), by the server's `Since`: one indexed query however long the chat (issue 24).
   */
  async findMessageAtDate(conversationId: number, day: string): Promise<number | null> {
    const since = localMidnight(day);
    if (since === null || !(Number.isSafeInteger(conversationId) && conversationId > 0)) {
      throw engineError('findMessageAtDate', 400, null, INVALID_PARAMETERS);
    }
    const { messages } = await this.options.rest().getMessages(conversationId, { since, count: 1 });
    return messages[0]?.id ?? null;
  }

  /** Fetches the receipts on the user's latest own messages of a chat; a failure only leaves ticks as they were. */
  async loadReceipts(conversationId: number): Promise<void> {
    try {
      const { dlrs } = await this.options.rest().getDlrs(conversationId);
      this.options.state.dispatch({ type: 'receiptsLoaded', receipts: dlrs });
    } catch (error) {
      this.options.log('receipts not loaded', error);
    }
  }

  /** The next older page; a prefetch of it already on its way is shared, not asked for twice. */
  loadOlderMessages(conversationId: number): Promise<boolean> {
    return this.history.loadOlder(conversationId);
  }

  /** A tab's reader moved in a chat (or left it): the engine loads ahead of them and trims far from them. */
  setViewport(tabId: string, conversationId: number, viewport: MessageViewport | null): void {
    this.history.setViewport(tabId, conversationId, viewport);
  }

  /** Jump to latest: the latest page becomes the window, whatever was trimmed off it. */
  loadLatestMessages(conversationId: number): Promise<void> {
    return this.loadLatest(conversationId);
  }

  closeTab(tabId: string): void {
    this.history.closeTab(tabId);
  }

  markVisible(conversationId: number, messageId: number): void {
    this.options.state.dispatch({ type: 'messageVisible', conversationId, messageId });
  }

  async editMessage(conversationId: number, messageId: number, text: string): Promise<Message> {
    const { message } = await this.options.rest().editMessage(conversationId, messageId, text);
    this.options.state.dispatch({ type: 'messageStored', message });
    return message;
  }

  async deleteMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer> {
    const answer = await this.options.rest().deleteMessages(conversationId, messageIds);
    this.options.state.dispatch({ type: 'messagesDeleted', conversationId, messageIds: answer.message_ids, hidden: false });
    return answer;
  }

  async hideMessages(conversationId: number, messageIds: number[]): Promise<WarningsAnswer> {
    const answer = await this.options.rest().hideMessages(conversationId, messageIds);
    this.options.state.dispatch({ type: 'messagesDeleted', conversationId, messageIds: answer.message_ids, hidden: true });
    return answer;
  }

  async react(conversationId: number, messageId: number, emoji: string, on: boolean): Promise<Message> {
    const rest = this.options.rest();
    const { message } = on
      ? await rest.addReaction(conversationId, messageId, emoji)
      : await rest.removeReaction(conversationId, messageId, emoji);
    this.options.state.dispatch({ type: 'messageStored', message });
    return message;
  }

  /** Mutes or unmutes a chat in the browser's time zone; the chat shows it at once (see EngineApi). */
  async muteConversation(conversationId: number, type: MuteType | 'unmute'): Promise<ConversationMute | null> {
    if (!(MUTE_TYPES as readonly string[]).includes(type)) throw engineError('setMute', 400, null, INVALID_PARAMETERS);
    const { mute } = await this.options.rest().setMute(conversationId, { type, timeZone: browserTimeZone() });
    const shown: ConversationMute | null = mute ? { type: mute.type, time_zone: mute.time_zone, until: mute.until } : null;
    this.options.state.dispatch({ type: 'muteChanged', conversationId, mute: shown });
    return shown;
  }

  async setDeliverySettings(conversationId: number, mode: DeliveryMode, intervalMinutes?: number): Promise<DeliverySettings> {
    if (!(DELIVERY_MODES as readonly string[]).includes(mode)) {
      throw engineError('setDeliverySettings', 400, null, INVALID_PARAMETERS);
    }
    const smart = intervalMinutes === undefined ? {} : { smartModeOptions: { intervalMinutes } };
    const answer = await this.options.rest().setDeliverySettings(conversationId, { mode, ...smart });
    return answer.delivery_settings;
  }

  /**
   * Takes the message or its id: a console user holds the message (from `messages(c)`), and an object taken
   * for an id would quietly answer false (issue 23). The engine's own copy is judged, so it counts as of now.
   */
  canEdit(target: number | Message): boolean {
    const messageId: unknown = typeof target === 'object' && target !== null ? target.id : target;
    // 0 names no message and answers false, like any id not loaded: the engine-killed test and the recovery
    // benchmark ask canEdit(0) only to see that an engine answers.
    if (typeof messageId !== 'number' || !Number.isSafeInteger(messageId) || messageId < 0) {
      throw engineError('canEdit', 400, null, INVALID_PARAMETERS);
    }
    const state = this.options.state.value;
    const message = findMessage(state, messageId);
    return message ? canEdit(message, state.selfId, this.options.clock.now()) : false;
  }

  editTarget(conversationId: number): number | null {
    const s = this.options.state.value;
    return editTarget(windowMessages(s, conversationId), s.selfId, this.options.clock.now())?.id ?? null;
  }

  // Keeping up.

  /**
   * Tabs reported their state: a chat that came into view (opened, or its tab shown again) is read now
   * (spec §4 "on chat open"), or reloaded first when its cached window is behind.
   */
  tabsChanged(openBefore: ReadonlySet<number>): void {
    const { state, tabs } = this.options;
    for (const id of tabs.openConversations()) {
      if (openBefore.has(id) || !state.value.windows[id]) continue;
      if (holdsLatest(state.value, id)) state.dispatch({ type: 'conversationOpened', conversationId: id });
      else this.reloadIfBehind(id);
    }
  }

  /** The reducer saw the user leave the conversation or be removed from it: tabs showing it go back to the list. */
  gone(conversationId: number): void {
    this.removed$.next(conversationId);
  }

  refreshInBackground(): void {
    void this.refreshConversations().catch((e: unknown) => this.options.log('conversation list refresh failed', e));
  }

  /** One conversation's details again (its messages come by socket or with its next page). */
  refetchConversation(conversationId: number): void {
    void this.loadConversation(conversationId).catch((e: unknown) => this.options.log('conversation refresh failed', e));
  }

  private async loadConversation(conversationId: number): Promise<void> {
    const { conversation } = await this.options.rest().getConversation(conversationId, { messageCount: 0 });
    this.options.state.dispatch({ type: 'conversationLoaded', conversation });
  }

  /** need_sync or a gap: the list again, and the latest page of every chat open in a tab or watched. */
  async resync(): Promise<void> {
    try {
      await this.refreshConversations();
      // Not `openConversation`: a chat closed while the sync runs must not be marked read by it.
      // A window trimmed for a reader far up stays: its newer pages come back as the reader does.
      for (const id of this.keptCurrent()) if (!this.history.awayFromLatest(id)) await this.loadLatest(id);
    } catch (error) {
      this.options.log('sync failed', error);
    }
  }

  /** The chats whose windows are kept current: open in a tab, or watched through `messages`. */
  private keptCurrent(): Set<number> {
    return new Set([...this.options.tabs.openConversations(), ...this.watched.keys()]);
  }

  private reloadIfBehind(conversationId: number): void {
    const state = this.options.state.value;
    if (!state.windows[conversationId] || holdsLatest(state, conversationId) || this.reloading.has(conversationId)) return;
    // Trimmed at its newer end for a reader far up, it is behind on purpose: reloading would move them.
    if (this.history.awayFromLatest(conversationId)) return;
    this.reloading.add(conversationId);
    void this.loadLatest(conversationId)
      .catch((e: unknown) => this.options.log('reloading a chat failed', e))
      .finally(() => this.reloading.delete(conversationId));
  }

  /** The latest page; a chat that is open in a tab when it arrives is read then (the reducer sees to it). */
  private async loadLatest(conversationId: number): Promise<void> {
    await this.loadLatestPage(conversationId);
    // A message that came by socket while the page was on its way had no window to join (a chat never
    // opened has none), so the page ends before the conversation's last message: the next answer has it.
    if (!holdsLatest(this.options.state.value, conversationId)) await this.loadLatestPage(conversationId);
  }

  private async loadLatestPage(conversationId: number): Promise<void> {
    const { messages } = await this.options.rest().getMessages(conversationId, { count: PAGE_SIZE });
    this.options.state.dispatch({ type: 'messagesLoaded', conversationId, messages, older: false, pageSize: PAGE_SIZE });
    this.history.latestLoaded(conversationId);
  }
}

/** Epoch seconds of a calendar day's local midnight, or null for anything but a real YYYY-MM-DD date. */
export function localMidnight(day: unknown): number | null {
  const match = typeof day === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const midnight = new Date(year, month - 1, date);
  // 2026-02-30 would roll over into March: not a day of the calendar.
  if (midnight.getFullYear() !== year || midnight.getMonth() !== month - 1 || midnight.getDate() !== date) return null;
  return Math.max(0, Math.floor(midnight.getTime() / 1000));
}
