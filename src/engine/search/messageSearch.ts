import { type Observable, Subject, type Subscription, throwError } from 'rxjs';
import type { Message } from '../../protocol/entities';
import type { MessageSearchView } from '../contract/types';
import type { EngineClock } from '../clock';
import { engineError } from '../errors';
import { INVALID_PARAMETERS } from '../rest/fallbacks';
import type { EngineEvent, EngineState } from '../state/types';
import type { WriteBatch } from '../storage/batchedWriter';
import type { EngineStorage } from '../storage/storage';
import { commentDoc, groupOf, messageDoc, messageKey, sameDoc, type SearchDoc } from './documents';
import type { HistoryKept } from '../contract/types';
import { HistoryKeptSetting, keptLimit } from './historyKept';
import { toHit } from './hits';
import { watchedQuery } from './watchedQuery';
import { SearchIndex } from './searchIndex';
import { SearchStore } from './searchStore';

export { SEARCH_SETTLE_MS } from './watchedQuery';

/** Stored documents added to the index per slice at start; the worker answers other calls between slices. */
export const BUILD_SLICE = 2000;
export const DEFAULT_SEARCH_LIMIT = 50;
const MAX_SEARCH_LIMIT = 500;

export interface MessageSearchDeps {
  storage: EngineStorage;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** The state it follows; its writer stores the index's documents with its own batches (`takeOps`). */
  state: {
    readonly value: EngineState;
    readonly state$: Observable<EngineState>;
    readonly events$: Observable<EngineEvent>;
    schedulePersist(): void;
  };
}

export interface SearchQueryOptions {
  conversationId?: number;
  limit?: number;
}

const validLimit = (n: unknown) => n === undefined || (typeof n === 'number' && Number.isSafeInteger(n) && n > 0 && n <= MAX_SEARCH_LIMIT);
const validId = (n: unknown) => n === undefined || (typeof n === 'number' && Number.isSafeInteger(n) && n > 0);

/**
 * Search of what this device holds (issue 13): every message, post and comment that reaches the engine's
 * state goes into the index; edits replace it, deletes and hides remove it at once, a chat the user left
 * takes its items with it, and sign-out clears it all. The documents are kept in the `search` store and
 * the index is rebuilt from them in slices at start (`complete` is false until then).
 */
export class MessageSearch {
  private readonly index = new SearchIndex();
  private readonly store: SearchStore;
  readonly historyKept: HistoryKeptSetting;
  private readonly changed$ = new Subject<void>();
  private complete = false;
  private readonly stids = new Map<string, string>();
  private prevMessages: EngineState['messages'] = {};
  private prevConversations: EngineState['conversations'] = {};
  private prevComments: EngineState['comments'] = {};
  private prevChannels: EngineState['channels'] = {};
  private readonly subscriptions: Subscription[] = [];
  private stopped = false;
  /** Moves on at every sign-out: stored documents read before it belong to the one who left. */
  private generation = 0;
  /** What was removed while the stored documents were being read (null once they are in). */
  private droppedWhileLoading: { keys: Set<string>; groups: Set<string> } | null = { keys: new Set(), groups: new Set() };

  constructor(private readonly deps: MessageSearchDeps) {
    this.store = new SearchStore(deps.storage, (key) => this.index.get(key), () => deps.state.schedulePersist());
    this.historyKept = new HistoryKeptSetting(deps.storage);
  }

  /**
   * Follows the state (communities included) from now on (call before the state is restored, so its messages
   * count as new), and reads the stored documents into the index in the background: the chats list of a
   * cold start does not wait for 100,000 documents to be read.
   */
  async load(): Promise<void> {
    await this.historyKept.load();
    const { state } = this.deps;
    this.subscriptions.push(
      state.state$.subscribe((s) => this.stateChanged(s)),
      state.events$.subscribe((e) => this.event(e)),
      this.historyKept.changes().subscribe((kept) => this.trimAll(kept)),
    );
    void this.loadStored();
  }

  /**
   * The stored documents join what the state brought meanwhile: the state's copy of one is newer, and one
   * deleted (or whose chat was left) meanwhile stays gone; after a sign-out meanwhile none are taken.
   */
  private async loadStored(): Promise<void> {
    const generation = this.generation;
    const docs = await this.store.load().catch((error: unknown): SearchDoc[] => {
      // An unreadable store costs the old results only: what comes from now on is indexed again.
      this.deps.log('search index not loaded', error);
      return [];
    });
    const dropped = this.droppedWhileLoading;
    this.droppedWhileLoading = null;
    const taken =
      generation === this.generation && dropped
        ? docs.filter((d) => !this.index.get(d.key) && !dropped.keys.has(d.key) && !dropped.groups.has(groupOf(d)))
        : [];
    for (const doc of taken) this.remember(doc);
    await this.build(taken.map((d) => d.key));
    this.trimAll(this.historyKept.value);
  }

  /** Stops following the state (what is pending is written with the state's last batch). */
  stop(): void {
    this.stopped = true;
    for (const s of this.subscriptions) s.unsubscribe();
  }

  /** The `search` store's pending writes, for the state's next batch (LiveState `extraOps`). */
  takeOps(): WriteBatch {
    return this.store.takeOps();
  }

  /** A watched query: its hits now, and again after each change of the index that changes them. */
  search(query: string, options: SearchQueryOptions = {}): Observable<MessageSearchView> {
    if (typeof query !== 'string' || typeof options !== 'object' || options === null || !validLimit(options.limit) || !validId(options.conversationId)) {
      return throwError(() => engineError('searchMessages', 400, null, INVALID_PARAMETERS));
    }
    return watchedQuery(() => this.view(query, options), this.changed$, this.deps.clock);
  }

  /** The ranked hits now. */
  view(query: string, options: SearchQueryOptions = {}): MessageSearchView {
    const raw = this.index.search(query, {
      limit: options.limit ?? DEFAULT_SEARCH_LIMIT,
      ...(options.conversationId !== undefined ? { conversationId: options.conversationId } : {}),
    });
    const state = this.deps.state.value;
    return { query, hits: raw.map((r) => toHit(r, state)), complete: this.complete };
  }

  /** The stored documents go into the tree a slice at a time, the worker free for other calls in between. */
  private async build(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length && !this.stopped; i += BUILD_SLICE) {
      await new Promise<void>((resolve) => this.deps.clock.setTimeout(resolve, 0));
      for (const key of keys.slice(i, i + BUILD_SLICE)) this.index.indexRemembered(key);
    }
    this.complete = true;
    this.changed$.next();
  }

  private remember(doc: SearchDoc): void {
    this.index.remember(doc);
    if (doc.stid) this.stids.set(doc.stid, doc.key);
  }

  private stateChanged(state: EngineState): void {
    this.communityChanged(state);
    const prev = this.prevMessages;
    this.prevMessages = state.messages;
    const prevConversations = this.prevConversations;
    this.prevConversations = state.conversations;
    const { channels } = state;
    const touched: SearchDoc[] = [];
    // The list's last messages: a chat never opened on this device is found by its latest message.
    if (prevConversations !== state.conversations) {
      for (const conversation of Object.values(state.conversations)) {
        const last = conversation.last_message;
        if (last && prevConversations[conversation.id]?.last_message !== last) {
          const doc = messageDoc(last, undefined);
          if (doc) touched.push(doc);
        }
      }
    }
    if (prev === state.messages) {
      this.put(touched);
      return;
    }
    for (const [cid, byId] of Object.entries(state.messages)) {
      const before = prev[Number(cid)];
      if (before === byId) continue;
      // A chat of the list is never a channel, whatever the channels say.
      const channel = Number(cid) in state.conversations ? undefined : channels[Number(cid)];
      for (const message of Object.values(byId) as Message[]) {
        if (before?.[message.id] === message) continue;
        const doc = messageDoc(message, channel);
        if (doc) touched.push(doc);
      }
    }
    this.put(touched);
  }

  /** The communities part of the state: channels known only now, and new or changed comments. */
  private communityChanged(state: EngineState): void {
    const touched: SearchDoc[] = [];
    // A channel known only now: its posts seen before (indexed as a chat's messages then) become its posts.
    const prevChannels = this.prevChannels;
    this.prevChannels = state.channels;
    if (prevChannels !== state.channels) {
      const { conversations } = state;
      for (const channel of Object.values(state.channels)) {
        if (prevChannels[channel.id] || channel.id in conversations) continue;
        for (const doc of this.index.docsOf(`chat:${channel.id}`)) {
          if (doc.kind !== 'message') continue;
          touched.push({ ...doc, kind: 'post', conversationId: null, channelId: channel.id, communityId: channel.community_id });
        }
      }
    }
    const prev = this.prevComments;
    this.prevComments = state.comments;
    if (prev === state.comments) {
      this.put(touched);
      return;
    }
    for (const comment of Object.values(state.comments)) {
      if (prev[comment.comment_id] === comment) continue;
      const doc = commentDoc(comment, state.channels[comment.channel_id]);
      if (doc) touched.push(doc);
    }
    this.put(touched);
  }

  private event(event: EngineEvent): void {
    if (event.type === 'signedOut') {
      this.generation += 1;
      this.index.clear();
      this.stids.clear();
      this.store.cleared();
      this.changed$.next();
    } else if (event.type === 'messageStored') {
      this.putMessage(event.message);
    } else if (event.type === 'messagesDeleted') {
      this.drop(event.messageIds.map(messageKey));
    } else if (event.type === 'socket') {
      const { frame } = event;
      if (frame.action === 'conversation_message') {
        // Also when the state does not keep it (its chat's window is not at the latest).
        this.putMessage(frame.data.message);
      } else if (frame.action === 'conversation_message_delete') {
        const byStid = frame.data.message_stids.map((stid) => this.stids.get(stid)).filter((k): k is string => k !== undefined);
        this.drop([...frame.data.message_ids.map(messageKey), ...byStid]);
      } else if (frame.action === 'deleted_conversation') {
        this.dropGroup(frame.data.conversation_id);
      } else if (frame.action === 'conversation_removed_user' && frame.data.user_id === this.deps.state.value.selfId) {
        this.dropGroup(frame.data.conversation_id);
      }
    }
  }

  private putMessage(message: Message): void {
    const { conversations, channels } = this.deps.state.value;
    const channel = message.conversation_id in conversations ? undefined : channels[message.conversation_id];
    const doc = messageDoc(message, channel);
    if (doc) this.put([doc]);
  }

  private put(docs: readonly SearchDoc[]): void {
    const changed: string[] = [];
    const groups = new Set<string>();
    for (const doc of docs) {
      const old = this.index.get(doc.key);
      if (old && sameDoc(old, doc)) {
        // Stored already; the build may not have reached it yet.
        this.index.indexRemembered(doc.key);
        continue;
      }
      this.index.upsert(doc);
      if (doc.stid) this.stids.set(doc.stid, doc.key);
      changed.push(doc.key);
      groups.add(groupOf(doc));
    }
    if (changed.length === 0) return;
    const limit = keptLimit(this.historyKept.value);
    for (const group of groups) changed.push(...this.index.trimGroup(group, limit));
    this.store.changed(changed);
    this.changed$.next();
  }

  private drop(keys: readonly string[]): void {
    for (const key of keys) this.droppedWhileLoading?.keys.add(key);
    const removed = keys.filter((key) => {
      const doc = this.index.get(key);
      if (doc?.stid) this.stids.delete(doc.stid);
      return this.index.remove(key);
    });
    if (removed.length === 0) return;
    this.store.changed(removed);
    this.changed$.next();
  }

  private dropGroup(conversationId: number): void {
    this.droppedWhileLoading?.groups.add(`chat:${conversationId}`);
    const removed = this.index.removeGroup(`chat:${conversationId}`);
    if (removed.length === 0) return;
    this.store.changed(removed);
    this.changed$.next();
  }

  /** A smaller choice trims every chat and channel at once. */
  private trimAll(kept: HistoryKept): void {
    const limit = keptLimit(kept);
    if (limit === Infinity) return;
    const removed = this.index.groupNames().flatMap((group) => this.index.trimGroup(group, limit));
    if (removed.length === 0) return;
    this.store.changed(removed);
    this.changed$.next();
  }
}

