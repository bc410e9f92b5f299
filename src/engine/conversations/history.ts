import type { Message } from '../../protocol/entities';
import type { EventFrame } from '../../protocol/socket';
import type { EngineClock } from '../clock';
import type { RestClient } from '../rest';
import type { LiveState } from '../state/liveState';
import { getMessage, holdsLatest } from '../state/messageStore';
import type { EngineEvent } from '../state/types';
import type { EngineStorage } from '../storage/storage';
import { HistorySpill } from './historySpill';
import type { MessageViewport } from '../contract/types';

/** Messages per page of a chat (the latest page, and each older or newer one). */
export const PAGE_SIZE = 20;
/** Loaded messages kept ahead of every reader, on each side: a fast wheel never reaches an unloaded edge. */
export const AHEAD = 100;
/** More than this many loaded messages beyond a reader's edge are trimmed, in whole pages… */
export const TRIM_BEYOND = 200;
/** …down to at least this many. */
export const KEEP_BEYOND = 120;
/** A chat this many pages behind its latest message is opened at the latest instead of caught up page by page. */
const CATCH_UP_PAGES = 10;
/**
 * After a failed page, prefetching rests this long, twice as long after each further failure in a row up to
 * RESTING_MAX_MS, and then tries again by itself: a reader who stays at an edge gets its page once the
 * network is back. The reader's own request for older messages does not wait.
 */
export const RESTING_MS = 2_000;
const RESTING_MAX_MS = 60_000;

export interface HistoryOptions {
  rest: () => RestClient;
  state: LiveState;
  storage: EngineStorage;
  clock: EngineClock;
  log: (message: string, detail?: unknown) => void;
  /** The window could not be joined to the latest messages: it becomes the latest page. */
  reloadLatest: (conversationId: number) => Promise<void>;
}

/** The first index of `ids` (ascending) whose id is at least `id`. */
function firstAtLeast(ids: readonly number[], id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((ids[mid] as number) < id) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * History that keeps up (issue 11): each tab tells where its reader is in a chat (`setViewport`), and the
 * engine keeps `AHEAD` messages loaded beyond both edges of every reader's viewport, a page of 20 at a
 * time, from IndexedDB first (pages it trimmed before, `HistorySpill`) and then the server; whatever lies
 * more than `TRIM_BEYOND` messages beyond them is trimmed, so memory stays bounded however far the reader
 * goes. Trimmed at its newer end, the window no longer holds the latest message: the pages it lost come
 * back as the reader returns (the server by `Before` the last id of each trimmed page, which the engine
 * keeps), and what came meanwhile after them. A chat opened at a message far back (`openAt`, issue 13) has
 * no trimmed pages below it: its newer pages come by the reference server's `After` (docs/server.md) until
 * the window joins the latest message.
 */
export class History {
  private readonly viewports = new Map<number, Map<string, MessageViewport>>();
  private readonly older = new Map<number, Promise<boolean>>();
  private readonly newer = new Map<number, Promise<boolean>>();
  /** Per chat, the last id of each page trimmed off the newer end; the page next to the window is last. */
  private readonly below = new Map<number, number[]>();
  /** Chats opened at a message (issue 13) whose window has not joined the latest yet: newer pages come by After. */
  private readonly anchored = new Set<number>();
  /** Per chat whose last prefetch failed: failures in a row, until when prefetching rests, the retry's timer. */
  private readonly failures = new Map<number, { count: number; until: number; timer: unknown }>();
  readonly spill: HistorySpill;

  constructor(private readonly options: HistoryOptions) {
    this.spill = new HistorySpill(options.storage, options.log, () => options.state.schedulePersist());
    options.state.events$.subscribe((event) => this.noticed(event));
  }

  /** A tab's reader moved (or left the chat: null). */
  setViewport(tabId: string, conversationId: number, viewport: MessageViewport | null): void {
    let tabs = this.viewports.get(conversationId);
    if (viewport) {
      if (!tabs) this.viewports.set(conversationId, (tabs = new Map()));
      tabs.set(tabId, {
        oldestId: Math.min(viewport.oldestId, viewport.newestId),
        newestId: Math.max(viewport.oldestId, viewport.newestId),
        following: viewport.following === true,
      });
    } else {
      tabs?.delete(tabId);
      if (tabs?.size === 0) this.viewports.delete(conversationId);
    }
    this.keepUp(conversationId);
  }

  closeTab(tabId: string): void {
    for (const [conversationId, tabs] of [...this.viewports]) {
      if (tabs.delete(tabId) && tabs.size === 0) this.viewports.delete(conversationId);
    }
  }

  /** The window was trimmed at its newer end for a reader: reloading the latest page would move them. */
  awayFromLatest(conversationId: number): boolean {
    return (this.below.get(conversationId)?.length ?? 0) > 0 || this.anchored.has(conversationId);
  }

  /** The latest page became the window (opened, jumped to the latest): what was trimmed off it is forgotten. */
  latestLoaded(conversationId: number): void {
    this.below.delete(conversationId);
    this.anchored.delete(conversationId);
    this.spill.forget(conversationId);
  }

  /** The next older page (the reader's own request): joins a prefetch in flight; rejects when it fails. */
  loadOlder(conversationId: number): Promise<boolean> {
    return this.run(this.older, conversationId, () => this.olderPage(conversationId)).then((progressed) => {
      if (progressed) this.keepUp(conversationId);
      return progressed;
    });
  }

  /**
   * The chat opened at a message (a search hit, issue 13): unless the window holds it already, the page around
   * it becomes the window, from IndexedDB when a page trimmed off holds it, else from the server (`Before`
   * id + 1 and `After` id, a page each). Pages are then loaded around the reader as anywhere else; newer ones
   * by `After` until the window joins the latest message.
   */
  async openAt(conversationId: number, messageId: number): Promise<void> {
    const { state } = this.options;
    if (state.value.windows[conversationId]?.ids.includes(messageId)) return;
    const kept = await this.spill.holding(conversationId, messageId);
    let messages: Message[];
    let hasOlder = true;
    if (kept) messages = kept;
    else {
      const rest = this.options.rest();
      const [older, newer] = await Promise.all([
        rest.getMessages(conversationId, { count: PAGE_SIZE, before: messageId + 1 }),
        rest.getMessages(conversationId, { count: PAGE_SIZE, after: messageId }),
      ]);
      messages = [...older.messages, ...newer.messages.filter((m) => m.id > messageId)];
      hasOlder = older.messages.length >= PAGE_SIZE;
    }
    state.dispatch({ type: 'windowMoved', conversationId, messages, hasOlder });
    // The window moved: what was trimmed off it no longer joins it anywhere.
    this.below.delete(conversationId);
    this.spill.forget(conversationId);
    if (holdsLatest(state.value, conversationId)) this.anchored.delete(conversationId);
    else this.anchored.add(conversationId);
    this.keepUp(conversationId);
  }

  /** Loads what the readers of this chat are about to reach, and trims what is far from all of them. */
  private keepUp(conversationId: number): void {
    const span = this.span(conversationId);
    const state = this.options.state.value;
    const window = state.windows[conversationId];
    if (!span || !window || window.ids.length === 0) return;
    const ids = window.ids;
    const low = firstAtLeast(ids, span.oldestId);
    const high = firstAtLeast(ids, span.newestId + 1) - 1;
    // A viewport outside the window (it was just replaced): the reader will say where they are next.
    if (high < low) return;
    const above = low;
    const below = ids.length - 1 - high;
    const resting = this.options.clock.now() < (this.failures.get(conversationId)?.until ?? Number.NEGATIVE_INFINITY);
    if (!resting && above < AHEAD && window.hasOlder) this.background(this.older, conversationId, () => this.olderPage(conversationId));
    if (!resting && below < AHEAD && this.hasNewer(conversationId)) {
      this.background(this.newer, conversationId, () => this.newerPage(conversationId));
    }
    if (above > TRIM_BEYOND && !this.older.has(conversationId)) this.trimOlder(conversationId, above);
    else if (below > TRIM_BEYOND && !this.newer.has(conversationId)) this.trimNewer(conversationId, below);
  }

  /**
   * From the oldest to the newest message any tab's reader has on screen; a reader following the latest has
   * every newer message on screen (a report sent before a burst arrived lags it by hundreds of messages).
   */
  private span(conversationId: number): MessageViewport | null {
    const tabs = this.viewports.get(conversationId);
    if (!tabs || tabs.size === 0) return null;
    let oldestId = Number.POSITIVE_INFINITY;
    let newestId = Number.NEGATIVE_INFINITY;
    for (const v of tabs.values()) {
      oldestId = Math.min(oldestId, v.oldestId);
      newestId = Math.max(newestId, v.following ? Number.POSITIVE_INFINITY : v.newestId);
    }
    return { oldestId, newestId };
  }

  private hasNewer(conversationId: number): boolean {
    return this.awayFromLatest(conversationId) || !holdsLatest(this.options.state.value, conversationId);
  }

  /** One load of a kind at a time per chat: a second asker shares the first one's answer. */
  private run(runs: Map<number, Promise<boolean>>, conversationId: number, load: () => Promise<boolean>): Promise<boolean> {
    const running = runs.get(conversationId);
    if (running) return running;
    const run = load().finally(() => runs.delete(conversationId));
    runs.set(conversationId, run);
    return run;
  }

  private background(runs: Map<number, Promise<boolean>>, conversationId: number, load: () => Promise<boolean>): void {
    if (runs.has(conversationId)) return;
    this.run(runs, conversationId, load).then(
      (progressed) => {
        if (progressed) this.keepUp(conversationId);
      },
      (error: unknown) => {
        this.options.log('history not loaded', error);
        this.restAfterFailure(conversationId);
      },
    );
  }

  /** A prefetch failed: rest, then try again (keepUp does nothing once no reader is in the chat). */
  private restAfterFailure(conversationId: number): void {
    const { clock } = this.options;
    const previous = this.failures.get(conversationId);
    if (previous) clock.clearTimeout(previous.timer);
    const count = (previous?.count ?? 0) + 1;
    const wait = Math.min(RESTING_MS * 2 ** (count - 1), RESTING_MAX_MS);
    const timer = clock.setTimeout(() => this.keepUp(conversationId), wait);
    this.failures.set(conversationId, { count, until: clock.now() + wait, timer });
  }

  private recovered(conversationId: number): void {
    const failure = this.failures.get(conversationId);
    if (!failure) return;
    this.options.clock.clearTimeout(failure.timer);
    this.failures.delete(conversationId);
  }

  private async olderPage(conversationId: number): Promise<boolean> {
    const { state } = this.options;
    const window = state.value.windows[conversationId];
    const before = window?.ids[0];
    if (!window || before === undefined || !window.hasOlder) return false;
    const kept = await this.spill.take(conversationId, 'older', before);
    const messages = kept ?? (await this.options.rest().getMessages(conversationId, { count: PAGE_SIZE, before })).messages;
    state.dispatch({ type: 'messagesLoaded', conversationId, messages, older: true, pageSize: PAGE_SIZE, before });
    this.recovered(conversationId);
    return state.value.windows[conversationId]?.ids[0] !== before;
  }

  private async newerPage(conversationId: number): Promise<boolean> {
    const { state } = this.options;
    const ids = state.value.windows[conversationId]?.ids;
    const after = ids?.[ids.length - 1];
    if (after === undefined) return false;
    const stack = this.below.get(conversationId) ?? [];
    const pageLast = stack[stack.length - 1];
    let messages: Message[];
    if (pageLast !== undefined) {
      const kept = await this.spill.take(conversationId, 'newer', after);
      // The trimmed page ends at pageLast: the 20 messages before pageLast + 1 are it (ids only grow).
      messages = kept ?? (await this.options.rest().getMessages(conversationId, { count: PAGE_SIZE, before: pageLast + 1 })).messages;
    } else if (this.anchored.has(conversationId)) {
      if (holdsLatest(state.value, conversationId)) return false;
      messages = (await this.options.rest().getMessages(conversationId, { count: PAGE_SIZE, after })).messages;
      // Nothing after it that this reader may see (the last message was hidden or deleted): no asking again
      // until the reader moves.
      if (!messages.some((m) => m.id > after)) return false;
    } else {
      if (holdsLatest(state.value, conversationId)) return false;
      const caughtUp = await this.catchUp(conversationId, after);
      if (!caughtUp) {
        await this.options.reloadLatest(conversationId);
        return true;
      }
      messages = caughtUp;
    }
    const current = state.value.windows[conversationId]?.ids;
    if (current?.[current.length - 1] !== after) return false;
    state.dispatch({ type: 'newerMessagesLoaded', conversationId, messages, after });
    this.recovered(conversationId);
    if (holdsLatest(state.value, conversationId)) this.anchored.delete(conversationId);
    // The trimmed pages this answer covered are back (or gone from the server meanwhile).
    const reached = Math.max(pageLast ?? after, ...messages.map((m) => m.id));
    while (stack.length > 0 && (stack[stack.length - 1] as number) <= reached) stack.pop();
    if (stack.length === 0) this.below.delete(conversationId);
    return true;
  }

  /**
   * The messages after `after` up to the latest, fetched from the latest back (the server pages only by
   * Before); null when there are more than CATCH_UP_PAGES pages of them.
   */
  private async catchUp(conversationId: number, after: number): Promise<Message[] | null> {
    const pages: Message[][] = [];
    let before: number | undefined;
    for (let i = 0; i < CATCH_UP_PAGES; i++) {
      const { messages } = await this.options
        .rest()
        .getMessages(conversationId, { count: PAGE_SIZE, ...(before !== undefined ? { before } : {}) });
      pages.unshift(messages);
      const oldest = messages[0]?.id;
      if (messages.length < PAGE_SIZE || oldest === undefined || oldest <= after) return pages.flat();
      before = oldest;
    }
    return null;
  }

  /** Cuts whole pages off the older end, keeping at least KEEP_BEYOND above the readers. */
  private trimOlder(conversationId: number, above: number): void {
    const state = this.options.state.value;
    const ids = state.windows[conversationId]?.ids ?? [];
    const pages = Math.floor((above - KEEP_BEYOND) / PAGE_SIZE);
    if (pages <= 0) return;
    const cut = pages * PAGE_SIZE;
    for (let p = 0; p < pages; p++) {
      const page = this.messagesOf(conversationId, ids.slice(p * PAGE_SIZE, (p + 1) * PAGE_SIZE));
      this.spill.put(conversationId, 'older', page, ids[(p + 1) * PAGE_SIZE] as number);
    }
    this.options.state.dispatch({
      type: 'windowTrimmed',
      conversationId,
      from: ids[cut] as number,
      to: ids[ids.length - 1] as number,
    });
  }

  /** Cuts whole pages off the newer end, keeping at least KEEP_BEYOND below the readers. */
  private trimNewer(conversationId: number, below: number): void {
    const state = this.options.state.value;
    const ids = state.windows[conversationId]?.ids ?? [];
    const pages = Math.floor((below - KEEP_BEYOND) / PAGE_SIZE);
    if (pages <= 0) return;
    const start = ids.length - pages * PAGE_SIZE;
    const stack = this.below.get(conversationId) ?? [];
    // The newest page first, so the page next to the window ends up on top.
    for (let p = pages - 1; p >= 0; p--) {
      const pageIds = ids.slice(start + p * PAGE_SIZE, start + (p + 1) * PAGE_SIZE);
      this.spill.put(conversationId, 'newer', this.messagesOf(conversationId, pageIds), ids[start + p * PAGE_SIZE - 1] as number);
      stack.push(pageIds[pageIds.length - 1] as number);
    }
    this.below.set(conversationId, stack);
    this.options.state.dispatch({ type: 'windowTrimmed', conversationId, from: ids[0] as number, to: ids[start - 1] as number });
  }

  private messagesOf(conversationId: number, ids: readonly number[]): Message[] {
    const state = this.options.state.value;
    return ids.map((id) => getMessage(state, conversationId, id)).filter((m): m is Message => m !== undefined);
  }

  /** Events that may change a message this engine trimmed make its kept pages stale. */
  private noticed(event: EngineEvent): void {
    switch (event.type) {
      case 'signedIn':
      case 'signedOut':
        this.below.clear();
        this.anchored.clear();
        this.spill.forgetAll();
        break;
      case 'socketLoaded':
        if (event.needSync) this.spill.forgetAll();
        break;
      case 'socket': {
        const touched = this.touchedElsewhere(event.frame);
        if (touched !== null) this.spill.forget(touched);
        break;
      }
      default:
        break;
    }
  }

  /** The chat whose message the frame changes, when that message is not loaded (it may be a trimmed one). */
  private touchedElsewhere(frame: EventFrame): number | null {
    const state = this.options.state.value;
    const unloaded = (conversationId: number, ids: readonly number[]) =>
      ids.some((id) => !getMessage(state, conversationId, id)) ? conversationId : null;
    switch (frame.action) {
      case 'reactions_changed':
        return unloaded(frame.data.conversation_id, [frame.data.message_id ?? frame.data.post_id ?? 0]);
      case 'conversation_message_delete':
        return frame.data.conversation_id;
      case 'conversation_message_edited':
      case 'conversation_message_update':
        return unloaded(frame.data.message.conversation_id, [frame.data.message.id]);
      case 'channel_post_comment_added':
        return unloaded(frame.data.channel_id, [frame.data.post_id]);
      default:
        return null;
    }
  }
}
