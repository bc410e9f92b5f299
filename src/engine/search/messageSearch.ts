import { type Observable, skip, Subject, type Subscription, throwError } from 'rxjs';
import type { Message } from '../../protocol/entities';
import type { MessageSearchView } from '../contract/types';
import type { EngineClock } from '../clock';
import { engineError } from '../errors';
import { INVALID_PARAMETERS } from '../rest/fallbacks';
import type { EngineEvent, EngineState } from '../state/types';
import { PERSIST_STREAM_DELAY_MS } from '../storage/batchedWriter';
import type { EngineStorage, IndexKey, StoreName, StoreTx } from '../storage/storage';
import { commentDoc, commentKey, groupRange, messageDoc, messageKey, type SearchDoc } from './documents';
import { fold, words } from './fold';
import { HistoryKeptSetting, keptLimit } from './historyKept';
import { toHit } from './hits';
import { BUILD_START, buildSlice } from './indexBuild';
import { applyChanges, SEARCH } from './indexWriter';
import { Removals } from './removals';
import { PendingChanges } from './pendingChanges';
import { BUILT_KEY, matchedTerms, PostingIndex, POSTINGS } from './postingIndex';
import { queryDocs } from './searchQuery';
import { watchedQuery } from './watchedQuery';

export { SEARCH_SETTLE_MS } from './watchedQuery';

/** Stored documents indexed per slice of the one-time build; the worker answers other calls between slices. */
export const BUILD_SLICE = 2000;
export const DEFAULT_SEARCH_LIMIT = 50;
/** Changes are gathered this long before they are written (the state's writer gathers a stream as long). */
export const SEARCH_WRITE_DELAY_MS = PERSIST_STREAM_DELAY_MS;
/**
 * Within a stream of changes (a write came less than this ago), they are gathered this long instead: 1,000
 * messages within a second cost the index two or three transactions beside the state's. A query and a
 * delete write at once whatever waits, so this delays only a watched query's re-run.
 */
export const SEARCH_STREAM_DELAY_MS = 1000;
/**
 * A write of the index that failed (a full store, an aborted transaction) is tried again this long after,
 * the wait doubling up to SEARCH_RETRY_MAX_MS while it keeps failing: changes are not left waiting for a next
 * change that may not come, and a one-time build that met a full disk goes on once there is room.
 */
export const SEARCH_RETRY_MS = 2_000;
export const SEARCH_RETRY_MAX_MS = 60_000;
const MAX_SEARCH_LIMIT = 500;

export interface MessageSearchDeps {
  storage: EngineStorage;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** The state it follows. */
  state: {
    readonly value: EngineState;
    readonly state$: Observable<EngineState>;
    readonly events$: Observable<EngineEvent>;
  };
}

export interface SearchQueryOptions {
  conversationId?: number;
  limit?: number;
}

const validLimit = (n: unknown) => n === undefined || (typeof n === 'number' && Number.isSafeInteger(n) && n > 0 && n <= MAX_SEARCH_LIMIT);
const validId = (n: unknown) => n === undefined || (typeof n === 'number' && Number.isSafeInteger(n) && n > 0);

/**
 * Search of what this device holds (issues 13 and 24): every message, post and comment that reaches the
 * engine's state goes into the index; edits replace it, deletes and hides remove it at once, a chat the user
 * left takes its items with it, and sign-out clears it all. The documents (`search` store) and the inverted
 * index (`postings`, postingIndex.ts) are kept in the store, not in the worker's memory, and change together
 * in one transaction per burst of events. The index opens with one read at start; documents stored by a
 * build from before it are indexed once, in slices (`complete` is false until then).
 */
export class MessageSearch {
  private readonly storage: EngineStorage;
  readonly historyKept: HistoryKeptSetting;
  private readonly changed$ = new Subject<void>();
  private complete = false;
  private pending = new PendingChanges();
  /** The index's writes, one after another (each one transaction): the index's numbering is one counter. */
  private queue: Promise<void> = Promise.resolve();
  private flushQueued = false;
  /** The index could not be opened: changes are not kept for a write that will never come. */
  private unavailable = false;
  private flushTimer: unknown = null;
  private retryTimer: unknown = null;
  /** The wait before the next try of a failed write of pending changes. */
  private retryMs = SEARCH_RETRY_MS;
  private lastWriteAt = -Infinity;
  /** The last write of pending changes: a view waits for it, so what was deleted is not found a moment later. */
  private lastFlush: Promise<void> = Promise.resolve();
  private ready: Promise<PostingIndex | null> = Promise.resolve(null);
  private prevMessages: EngineState['messages'] = {};
  private prevConversations: EngineState['conversations'] = {};
  private prevComments: EngineState['comments'] = {};
  private prevChannels: EngineState['channels'] = {};
  private readonly subscriptions: Subscription[] = [];
  private stopped = false;
  /** Moves on at every sign-out: a failed write of the user who left is not tried again for the next. */
  private generation = 0;
  /** Chats left and the trim to the kept history, a slice at a time. */
  private readonly removals: Removals;

  constructor(private readonly deps: MessageSearchDeps) {
    this.storage = deps.storage;
    this.historyKept = new HistoryKeptSetting(deps.storage);
    this.removals = new Removals({
      inSlices: (slice) => this.inSlices(slice, false),
      write: (index, work) => this.write(index, work),
      kept: () => keptLimit(this.historyKept.value),
      changed: () => this.changed$.next(),
      stopped: () => this.stopped,
    });
  }

  /**
   * Follows the state (communities included) from now on (call before the state is restored, so its messages
   * count as new), and opens the index: one read, no rebuild. Documents of an older build are indexed in the
   * background: the chats list of a cold start does not wait for them.
   */
  async load(): Promise<void> {
    await this.historyKept.load();
    const { state } = this.deps;
    this.subscriptions.push(
      state.state$.subscribe((s) => this.stateChanged(s)),
      state.events$.subscribe((e) => this.event(e)),
      // The choice at start is applied once the index is built (`buildOnce`); a new choice at once.
      this.historyKept.changes().pipe(skip(1)).subscribe(() => this.removals.trimAll()),
    );
    this.ready = this.open();
    void this.ready.then(async (index) => {
      if (!index) return;
      // A drop a stopped engine left half done goes on.
      if (index.dropped.length > 0) this.removals.start();
      if (await this.buildOnce()) this.removals.trimAll();
    });
  }

  private async open(): Promise<PostingIndex | null> {
    try {
      const index = await PostingIndex.open(this.storage);
      this.complete = await this.builtAlready();
      return index;
    } catch (error) {
      // An unreadable store costs search only; the rest of the engine goes on.
      this.deps.log('search index not opened', error);
      this.unavailable = true;
      this.complete = true;
      return null;
    }
  }

  /** Whether no stored document waits for the one-time build (an empty store needs none). */
  private async builtAlready(): Promise<boolean> {
    if (await this.storage.get<boolean>('meta', BUILT_KEY)) return true;
    const [any] = await this.storage.transact([SEARCH], 'readonly', (tx) => tx.getPage(SEARCH, null, 1));
    if (any) return false;
    await this.storage.writeBatch([{ store: 'meta', type: 'put', key: BUILT_KEY, value: true }]);
    return true;
  }

  /**
   * The first start of this build indexes what an older one stored (oldest first), a slice per timer turn.
   * The search says it is not complete until every slice is in, rather than answering from part of the
   * history as if it were all. Resolves whether the engine is still running (a stopped one goes on at the
   * next start where this one stopped).
   */
  private async buildOnce(): Promise<boolean> {
    if (this.complete) return true;
    let after: IndexKey | null = BUILD_START;
    const built = await this.inSlices(async (index) => {
      const from = after as IndexKey;
      after = await this.write(index, (tx) => buildSlice(tx, index, from, BUILD_SLICE), [SEARCH, POSTINGS, 'meta']);
      this.changed$.next();
      return after === null;
    }, true);
    if (!built) return false;
    this.complete = true;
    this.changed$.next();
    return true;
  }

  /**
   * Runs `slice` (one transaction each, in the index's queue) until it says it is done, the next a timer turn
   * after the last so the worker answers other calls between them (the first at once unless `timerFirst`).
   * A slice that fails is tried again later (SEARCH_RETRY_MS, doubling). Resolves false if the engine stopped.
   */
  private async inSlices(slice: (index: PostingIndex) => Promise<boolean>, timerFirst: boolean): Promise<boolean> {
    let wait: number | null = timerFirst ? 0 : null;
    let retry = SEARCH_RETRY_MS;
    for (;;) {
      if (wait !== null) {
        const ms = wait;
        await new Promise<void>((resolve) => this.deps.clock.setTimeout(resolve, ms));
      }
      if (this.stopped) return false;
      try {
        // No index (it could not be opened): nothing is left to do.
        if (await this.queued(slice, true)) return true;
        wait = 0;
        retry = SEARCH_RETRY_MS;
      } catch {
        // Logged by the queue; the same slice again later (what the failed one counted on was read again).
        wait = retry;
        retry = Math.min(retry * 2, SEARCH_RETRY_MAX_MS);
      }
    }
  }

  /** Stops following the state, and writes what is pending. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const s of this.subscriptions) s.unsubscribe();
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.settled();
  }

  /** Writes what is pending now, and resolves once every change so far is in the index (flush, stop, tests). */
  async settled(): Promise<void> {
    void this.flushNow();
    let queue: Promise<void>;
    do {
      queue = this.queue;
      await queue;
    } while (queue !== this.queue);
  }

  /** A watched query: its hits now, and again after each change of the index that changes them. */
  search(query: string, options: SearchQueryOptions = {}): Observable<MessageSearchView> {
    if (typeof query !== 'string' || typeof options !== 'object' || options === null || !validLimit(options.limit) || !validId(options.conversationId)) {
      return throwError(() => engineError('searchMessages', 400, null, INVALID_PARAMETERS));
    }
    return watchedQuery(() => this.view(query, options), this.changed$, this.deps.clock);
  }

  /**
   * The hits now: the newest that match (by when they were indexed: the index numbers documents as they
   * come), newest first, with their documents read by key.
   */
  async view(query: string, options: SearchQueryOptions = {}): Promise<MessageSearchView> {
    // What the state already shows (a delete, an edit) is written first: a query never answers from before it.
    await this.flushNow();
    const index = await this.ready;
    if (!index || words(query).every((w) => fold(w) === '')) return { query, hits: [], complete: this.complete };
    const docs = await queryDocs(this.storage, index, query, options.limit ?? DEFAULT_SEARCH_LIMIT, options.conversationId);
    const state = this.deps.state.value;
    const hits = docs.map((doc, i) => toHit({ doc, score: docs.length - i, terms: matchedTerms(doc.text, query) }, state));
    return { query, hits, complete: this.complete };
  }

  /**
   * Runs `task` after every task before it (the index's numbering is one counter, and a burst's changes
   * are taken whole): its result, while the queue goes on whatever becomes of it.
   */
  private queued<T>(task: (index: PostingIndex) => Promise<T>, fallback: T): Promise<T> {
    const run = this.queue.then(async () => {
      const index = await this.ready;
      return index ? task(index) : fallback;
    });
    this.queue = run.then(
      () => undefined,
      (error: unknown) => this.deps.log('search index not written', error),
    );
    return run;
  }

  /**
   * One write transaction over the documents and the index (and `meta` for the build's mark only: the
   * state's batches write there, and a wider scope would wait for them); a failed one leaves the numbering
   * as stored.
   */
  private async write<T>(index: PostingIndex, work: (tx: StoreTx) => Promise<T>, stores: readonly StoreName[] = [SEARCH, POSTINGS]): Promise<T> {
    try {
      return await this.storage.transact(stores, 'readwrite', work);
    } catch (error) {
      await index.reload(this.storage).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Something is pending: it is written SEARCH_WRITE_DELAY_MS later with whatever came meanwhile, so 1,000
   * messages within a second cost a few transactions, not one each (the socket brings them one a task).
   */
  private changed(): void {
    if (this.stopped || this.flushTimer !== null || this.pending.empty) return;
    const { clock } = this.deps;
    const streaming = clock.now() - this.lastWriteAt < SEARCH_STREAM_DELAY_MS;
    this.flushTimer = clock.setTimeout(() => {
      this.flushTimer = null;
      void this.flushNow();
    }, streaming ? SEARCH_STREAM_DELAY_MS : SEARCH_WRITE_DELAY_MS);
  }

  /** Writes what is pending now (after the writes before it); the write that holds every change so far. */
  private flushNow(): Promise<void> {
    if (this.flushTimer !== null) {
      this.deps.clock.clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    // This write takes whatever a failed one left: it is the retry.
    if (this.retryTimer !== null) {
      this.deps.clock.clearTimeout(this.retryTimer);
      this.retryTimer = null;
    }
    if (this.flushQueued || this.pending.empty) return this.lastFlush;
    this.flushQueued = true;
    this.lastFlush = this.queued(async (index) => {
      this.flushQueued = false;
      this.lastWriteAt = this.deps.clock.now();
      const generation = this.generation;
      const taken = this.pending;
      this.pending = new PendingChanges();
      if (taken.empty) return;
      // While a trim goes through the chats, a write does not trim as well (a slice of removals in every write).
      const kept = this.removals.trimming ? Infinity : keptLimit(this.historyKept.value);
      try {
        const applied = await this.write(index, (tx) => applyChanges(tx, index, taken, kept));
        if (applied.changed) this.changed$.next();
        this.retryMs = SEARCH_RETRY_MS;
        // A chat dropped (again) is gone through from its start; a chat that grew past a slice's trim, all.
        if (taken.groups.size > 0) this.removals.dropped([...taken.groups].map((group) => groupRange(group).lower[0]));
        if (applied.untrimmed) this.removals.trimAll();
      } catch (error) {
        // Kept for the next write (a full store, an aborted transaction): nothing is lost while the engine runs.
        if (generation === this.generation) {
          this.pending = PendingChanges.merged(taken, this.pending);
          this.retryLater();
        }
        throw error;
      }
    }, undefined)
      .catch(() => undefined)
      .then(() => {
        // No index (it could not be opened): the task never ran, and nothing will ever take the changes.
        if (this.unavailable) {
          this.flushQueued = false;
          this.pending = new PendingChanges();
        }
      });
    return this.lastFlush;
  }

  /** A failed write is tried again after a while, even if no change comes to carry it. */
  private retryLater(): void {
    if (this.stopped || this.retryTimer !== null) return;
    const ms = this.retryMs;
    this.retryMs = Math.min(ms * 2, SEARCH_RETRY_MAX_MS);
    this.retryTimer = this.deps.clock.setTimeout(() => {
      this.retryTimer = null;
      void this.flushNow();
    }, ms);
  }

  private stateChanged(state: EngineState): void {
    this.communityChanged(state);
    const prev = this.prevMessages;
    this.prevMessages = state.messages;
    const prevConversations = this.prevConversations;
    this.prevConversations = state.conversations;
    const { channels } = state;
    const touched: SearchDoc[] = [];
    // A message that became a tombstone (deleted for everybody) however it came, a sync's page included:
    // whatever was indexed of it goes (docs/ui.md, "Deleted messages").
    const gone: Message[] = [];
    // The list's last messages: a chat never opened on this device is found by its latest message.
    if (prevConversations !== state.conversations) {
      for (const conversation of Object.values(state.conversations)) {
        const last = conversation.last_message;
        if (last && prevConversations[conversation.id]?.last_message !== last) {
          const doc = messageDoc(last, undefined);
          if (doc) touched.push(doc);
          else if (last.deleted) gone.push(last);
        }
      }
    }
    if (prev === state.messages) {
      this.dropTombstones(gone, state);
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
        else if (message.deleted && !before?.[message.id]?.deleted) gone.push(message);
      }
    }
    this.dropTombstones(gone, state);
    this.put(touched);
  }

  /**
   * Messages deleted for everybody leave the index, as a delete event's do, and so do the loaded comments
   * of a deleted post (the server deletes them with it).
   */
  private dropTombstones(messages: readonly Message[], state: EngineState): void {
    if (messages.length === 0) return;
    const posts = new Set<number>();
    for (const message of messages) {
      this.pending.drop(messageKey(message.id));
      posts.add(message.id);
    }
    for (const comment of Object.values(state.comments)) {
      if (posts.has(comment.post_id)) this.pending.drop(commentKey(comment.comment_id));
    }
    this.removedNow();
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
        this.pending.channelKnown(channel.id, channel.community_id);
        this.changed();
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
      this.pending = new PendingChanges();
      this.removals.reset();
      void this.queued(async (index) => {
        await this.write(index, async (tx) => {
          tx.clear(SEARCH);
          index.clear(tx);
        });
        this.changed$.next();
      }, undefined).catch(() => undefined);
      this.changed$.next();
    } else if (event.type === 'messageStored') {
      this.putMessage(event.message);
    } else if (event.type === 'messagesDeleted') {
      for (const id of event.messageIds) this.pending.drop(messageKey(id));
      this.removedNow();
    } else if (event.type === 'socket') {
      const { frame } = event;
      if (frame.action === 'conversation_message') {
        // Also when the state does not keep it (its chat's window is not at the latest).
        this.putMessage(frame.data.message);
      } else if (frame.action === 'conversation_message_delete') {
        for (const id of frame.data.message_ids) this.pending.drop(messageKey(id));
        for (const stid of frame.data.message_stids) this.pending.dropStid(stid);
        this.removedNow();
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
    if (docs.length === 0) return;
    for (const doc of docs) this.pending.put(doc);
    this.changed();
  }

  private dropGroup(conversationId: number): void {
    this.pending.dropGroup(`chat:${conversationId}`);
    this.removedNow();
  }

  /** Deleted, hidden or left: gone from the watched queries at once, not after a burst's gathering. */
  private removedNow(): void {
    if (!this.stopped) void this.flushNow();
  }
}
