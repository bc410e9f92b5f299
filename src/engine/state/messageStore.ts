import type { Message } from '../../protocol/entities';
import { mergeSortedIds, removeEntries, sameJson, setEntry } from './records';
import type { ConversationMessages, EngineState, MessageWindow } from './types';

/**
 * The loaded messages (by conversation, then id) and each conversation's window onto them. A window is
 * one contiguous run of history ending at the latest message; it is only extended at its ends, so it
 * never has a hole.
 */

const NO_MESSAGES: ConversationMessages = Object.freeze({});

/** One conversation's loaded messages (an empty map when none are). */
export function conversationMessages(state: EngineState, conversationId: number): ConversationMessages {
  return state.messages[conversationId] ?? NO_MESSAGES;
}

/** A loaded message of a known conversation. */
export function getMessage(state: EngineState, conversationId: number, messageId: number): Message | undefined {
  return state.messages[conversationId]?.[messageId];
}

/** A loaded message found by id alone: one lookup per conversation, for callers that do not know it. */
export function findMessage(state: EngineState, messageId: number): Message | undefined {
  for (const byId of Object.values(state.messages)) {
    const message = byId[messageId];
    if (message) return message;
  }
  return undefined;
}

/** Every loaded message, conversation by conversation (for persistence). */
export function* allMessages(state: EngineState): Iterable<Message> {
  for (const byId of Object.values(state.messages)) yield* Object.values(byId);
}

/** The `messages` slice holding `messages`, keyed by their conversation (for restoring stored messages). */
export function indexMessages(messages: Iterable<Message>): EngineState['messages'] {
  const result: Record<number, Record<number, Message>> = {};
  for (const message of messages) (result[message.conversation_id] ??= {})[message.id] = message;
  return result;
}

/** `byId` (the same messages and more) replaces the conversation's messages. */
function setConversationMessages(state: EngineState, conversationId: number, byId: ConversationMessages): EngineState {
  if (state.messages[conversationId] === byId) return state;
  return { ...state, messages: setEntry(state.messages, conversationId, byId) };
}

/**
 * Takes `ids` out of the conversation's loaded messages; a conversation left with none is taken out. Only a
 * removal looks whether any are left: listing a chat's thousands of keys for every message that arrived was
 * a tenth of the worker's time in a burst.
 */
function removeConversationMessages(state: EngineState, conversationId: number, ids: Iterable<number>): EngineState {
  const byId = removeEntries(conversationMessages(state, conversationId), ids);
  if (state.messages[conversationId] === byId) return state;
  const messages =
    Object.keys(byId).length === 0 ? removeEntries(state.messages, [conversationId]) : setEntry(state.messages, conversationId, byId);
  return messages === state.messages ? state : { ...state, messages };
}

/**
 * Whether `old` stays rather than `message`: the server sent the same thing again, or an answer asked for
 * before a delete for everybody still has the message (a deleted message never comes back).
 */
const keepsOld = (old: Message | undefined, message: Message): old is Message =>
  old !== undefined && (sameJson(old, message) || (old.deleted === true && message.deleted !== true));

/** Stores `message`, keeping the old object when the server sent the same thing again. */
export function putMessage(state: EngineState, message: Message): EngineState {
  const byId = conversationMessages(state, message.conversation_id);
  const old = byId[message.id];
  if (keepsOld(old, message)) return state;
  return setConversationMessages(state, message.conversation_id, setEntry(byId, message.id, message));
}

/** Stores several messages of one conversation with one copy of its map. */
function putMessages(state: EngineState, conversationId: number, page: readonly Message[]): EngineState {
  const byId = conversationMessages(state, conversationId);
  let next: Record<number, Message> | null = null;
  for (const message of page) {
    const old = (next ?? byId)[message.id];
    if (keepsOld(old, message)) continue;
    next ??= { ...byId };
    next[message.id] = message;
  }
  return next ? setConversationMessages(state, conversationId, next) : state;
}

/**
 * Whether the window ends at the conversation's latest message, so a new message can be appended
 * without leaving a hole. A window that is behind the conversation (the list was refetched with newer
 * messages) waits for the engine to reload the latest page instead. A conversation without a last
 * message is empty, unless its last message was deleted and a refetch is on its way
 * (`repairLastMessage` keeps its time): then the window holds the latest only up to that time.
 */
export function holdsLatest(state: EngineState, conversationId: number): boolean {
  const window = state.windows[conversationId];
  if (!window) return false;
  const conversation = state.conversations[conversationId];
  const last = window.ids[window.ids.length - 1];
  const latest = conversation?.last_message;
  if (latest) return last !== undefined && last >= latest.id;
  const time = Number(conversation?.last_message_time ?? 0);
  if (!(time > 0)) return true;
  const newest = last === undefined ? undefined : getMessage(state, conversationId, last);
  return newest !== undefined && Number(newest.created_at) >= time;
}

function setWindow(state: EngineState, conversationId: number, window: MessageWindow): EngineState {
  const old = state.windows[conversationId];
  if (old && old.hasOlder === window.hasOlder && old.ids === window.ids) return state;
  return { ...state, windows: setEntry(state.windows, conversationId, window) };
}

/**
 * Adds a message id to a window that holds the latest page (ask `holdsLatest` before the conversation
 * moves on). An id older than the loaded run belongs to history that is not loaded: adding it would
 * leave a hole, so it is refused (null).
 */
export function appendToWindow(state: EngineState, conversationId: number, id: number): EngineState | null {
  const window = state.windows[conversationId];
  if (!window) return null;
  const first = window.ids[0];
  if (window.hasOlder && (first === undefined || id < first)) return null;
  return setWindow(state, conversationId, { ...window, ids: mergeSortedIds(window.ids, [id]) });
}

const sameIds = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((id, i) => id === b[i]);

/**
 * The latest page replaces the window. Inside the page's range the page is the truth, so loaded
 * messages missing from it were deleted or hidden. Around it:
 * - When the page overlaps the loaded run (a resync of an open chat), the older part of the run is
 *   kept so the history the user scrolled through does not vanish.
 * - Loaded messages newer than the page's newest are kept: they came by socket while the request was
 *   in flight (the server answered from a moment before them). Dropping them would leave the window
 *   behind the conversation's last message, and no later message would be appended until the chat was
 *   reopened. (The cost: a newest message deleted while this client could not hear it, a need_sync,
 *   stays until the next load; deletes heard live or replayed remove it as usual.)
 */
export function loadLatestPage(
  state: EngineState,
  conversationId: number,
  page: readonly Message[],
  pageSize: number,
): EngineState {
  const pageIds = [...new Set(page.map((m) => m.id))].sort((a, b) => a - b);
  const full = page.length >= pageSize;
  const old = state.windows[conversationId];
  const oldIds = old?.ids ?? [];
  const first = pageIds[0];
  const pageLast = pageIds[pageIds.length - 1] ?? 0;
  const oldLast = oldIds[oldIds.length - 1];
  const newer = oldIds.filter((id) => id > pageLast);
  let window: MessageWindow = { ids: [...pageIds, ...newer], hasOlder: full };
  if (old && full && first !== undefined && oldLast !== undefined && first <= oldLast) {
    window = { ids: [...oldIds.filter((id) => id < first), ...pageIds, ...newer], hasOlder: old.hasOlder };
  }
  if (old && sameIds(window.ids, old.ids)) window = { ...window, ids: old.ids };
  const kept = new Set(window.ids);
  const gone = oldIds.filter((id) => !kept.has(id));
  let next = gone.length > 0 ? removeConversationMessages(state, conversationId, gone) : state;
  next = putMessages(next, conversationId, page);
  return setWindow(next, conversationId, window);
}

/**
 * An older page (loaded with Before) goes in front of the window; a full page means more may exist. A page
 * asked for `before` a message that is no longer the window's first (the window was trimmed or reloaded
 * while the page was on its way) would leave a hole, so it is dropped.
 */
export function loadOlderPage(
  state: EngineState,
  conversationId: number,
  page: readonly Message[],
  pageSize: number,
  before?: number,
): EngineState {
  const current = state.windows[conversationId];
  if (before !== undefined && current?.ids[0] !== before) return state;
  const first = current?.ids[0] ?? Number.POSITIVE_INFINITY;
  const older = page.filter((m) => m.id < first);
  const loaded = conversationMessages(state, conversationId);
  // Messages the window already has come again in their newest form.
  const next = putMessages(state, conversationId, page.filter((m) => m.id < first || loaded[m.id] !== undefined));
  const old = next.windows[conversationId] ?? { ids: [], hasOlder: true };
  return setWindow(next, conversationId, {
    ids: mergeSortedIds(old.ids, older.map((m) => m.id)),
    hasOlder: page.length >= pageSize,
  });
}

/**
 * A newer page goes behind the window, which ended at `after` (it was trimmed at its newer end): the page
 * holds the messages that follow it. A window that no longer ends there takes nothing (no hole).
 */
export function loadNewerPage(
  state: EngineState,
  conversationId: number,
  page: readonly Message[],
  after: number,
): EngineState {
  const window = state.windows[conversationId];
  if (!window || window.ids[window.ids.length - 1] !== after) return state;
  const newer = page.filter((m) => m.id > after);
  if (newer.length === 0) return state;
  const next = putMessages(state, conversationId, newer);
  return setWindow(next, conversationId, { ...window, ids: mergeSortedIds(window.ids, newer.map((m) => m.id)) });
}

/**
 * The page around a message replaces the window, wherever it was (a chat opened at a search hit, issue 13):
 * the loaded messages outside the page go, as a trim's do. Its newest may be the conversation's latest.
 */
export function moveWindow(state: EngineState, conversationId: number, page: readonly Message[], hasOlder: boolean): EngineState {
  const ids = [...new Set(page.map((m) => m.id))].sort((a, b) => a - b);
  const kept = new Set(ids);
  const gone = (state.windows[conversationId]?.ids ?? []).filter((id) => !kept.has(id));
  let next = gone.length > 0 ? removeConversationMessages(state, conversationId, gone) : state;
  next = putMessages(next, conversationId, page);
  return setWindow(next, conversationId, { ids, hasOlder });
}

/**
 * Keeps only the window's messages from `from` to `to` (ids, inclusive): what lies beyond them is far
 * from every reader and goes from memory (issue 11). Cut at the older end, older history exists again;
 * cut at the newer end, the window no longer holds the latest (`holdsLatest`), so live messages wait
 * until the reader comes back down. Receipt marks stay: they are small and come back with their messages.
 */
export function trimWindow(state: EngineState, conversationId: number, from: number, to: number): EngineState {
  const window = state.windows[conversationId];
  if (!window) return state;
  const ids = window.ids.filter((id) => id >= from && id <= to);
  if (ids.length === window.ids.length || ids.length === 0) return state;
  const gone = window.ids.filter((id) => id < from || id > to);
  const next = removeConversationMessages(state, conversationId, gone);
  return setWindow(next, conversationId, { ids, hasOlder: window.hasOlder || ids[0] !== window.ids[0] });
}

/**
 * Replaces a message the user can already see (an edit, a reaction, a comment count), wherever it is:
 * in the loaded messages and as the conversation's last message. A message that is not loaded is left
 * alone: its newest form comes with the page that loads it.
 */
export function refreshMessage(state: EngineState, message: Message): EngineState {
  let next = state;
  if (getMessage(state, message.conversation_id, message.id)) next = putMessage(next, message);
  const conversation = next.conversations[message.conversation_id];
  const last = conversation?.last_message;
  if (conversation && last && last.id === message.id && !keepsOld(last, message)) {
    next = {
      ...next,
      conversations: setEntry(next.conversations, conversation.id, { ...conversation, last_message: message }),
    };
  }
  return next;
}

/** The loaded messages of a conversation that a delete event names by id or by stid. */
export function findMessages(
  state: EngineState,
  conversationId: number,
  ids: readonly number[],
  stids: readonly string[],
): number[] {
  const byId = conversationMessages(state, conversationId);
  const wanted = new Set(stids);
  const found = new Set(ids);
  // The server names each message by id and stid: only stids not matched by an id need a search.
  for (const id of found) {
    const stid = byId[id]?.stid;
    if (stid !== undefined) wanted.delete(stid);
  }
  if (wanted.size > 0) {
    for (const id of state.windows[conversationId]?.ids ?? []) {
      const message = byId[id];
      if (message && wanted.has(message.stid)) found.add(id);
    }
    const last = state.conversations[conversationId]?.last_message;
    if (last && wanted.has(last.stid)) found.add(last.id);
  }
  return [...found];
}

/** Drops messages from the loaded messages, the window and the receipt marks. */
export function dropMessages(state: EngineState, conversationId: number, ids: readonly number[]): EngineState {
  if (ids.length === 0) return state;
  const gone = new Set(ids);
  let next = removeConversationMessages(state, conversationId, ids);
  const receipts = removeEntries(state.receipts, ids);
  if (receipts !== state.receipts) next = { ...next, receipts };
  const window = state.windows[conversationId];
  if (window && window.ids.some((id) => gone.has(id))) {
    next = setWindow(next, conversationId, { ...window, ids: window.ids.filter((id) => !gone.has(id)) });
  }
  return next;
}

/** The window's messages, oldest first, skipping any id whose message is missing. */
export function windowMessages(state: EngineState, conversationId: number): Message[] {
  const ids = state.windows[conversationId]?.ids ?? [];
  const byId = conversationMessages(state, conversationId);
  const out: Message[] = [];
  for (const id of ids) {
    const message = byId[id];
    if (message) out.push(message);
  }
  return out;
}
