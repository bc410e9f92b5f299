import type { Message } from '../../protocol/entities';
import { mergeSortedIds, removeEntries, setEntry } from './records';
import type { EngineState, MessageWindow } from './types';

/**
 * The loaded messages and each conversation's window onto them. A window is one contiguous run of
 * history ending at the latest message; it is only extended at its ends, so it never has a hole.
 */

/** Messages are plain JSON from the server: equal JSON means nothing for an observer to redraw. */
export function sameMessage(a: Message, b: Message): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** Stores `message`, keeping the old object when the server sent the same thing again. */
export function putMessage(state: EngineState, message: Message): EngineState {
  const old = state.messages[message.id];
  if (old && sameMessage(old, message)) return state;
  return { ...state, messages: setEntry(state.messages, message.id, message) };
}

/**
 * Whether the window ends at the conversation's latest message, so a new message can be appended
 * without leaving a hole. A window that is behind the conversation (the list was refetched with newer
 * messages) waits for the engine to reload the latest page instead.
 */
export function holdsLatest(state: EngineState, conversationId: number): boolean {
  const window = state.windows[conversationId];
  if (!window) return false;
  const latest = state.conversations[conversationId]?.last_message?.id;
  if (latest === undefined) return true;
  const last = window.ids[window.ids.length - 1];
  return last !== undefined && last >= latest;
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

/**
 * The latest page replaces the window. When the page overlaps the loaded run (a resync of an open chat),
 * the older part of the run is kept so the history the user scrolled through does not vanish; inside
 * the page's range the page is the truth, so messages missing from it were deleted or hidden.
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
  const first = pageIds[0];
  const oldLast = old?.ids[old.ids.length - 1];
  let window: MessageWindow = { ids: pageIds, hasOlder: full };
  if (old && full && first !== undefined && oldLast !== undefined && first <= oldLast) {
    window = { ids: [...old.ids.filter((id) => id < first), ...pageIds], hasOlder: old.hasOlder };
  }
  if (old && window.ids.length === old.ids.length && window.ids.every((id, i) => id === old.ids[i])) {
    window = { ...window, ids: old.ids };
  }
  const kept = new Set(window.ids);
  let next = { ...state, messages: removeEntries(state.messages, (old?.ids ?? []).filter((id) => !kept.has(id))) };
  for (const message of page) next = putMessage(next, message);
  return setWindow(next, conversationId, window);
}

/** An older page (loaded with Before) goes in front of the window; a full page means more may exist. */
export function loadOlderPage(
  state: EngineState,
  conversationId: number,
  page: readonly Message[],
  pageSize: number,
): EngineState {
  let next = state;
  for (const message of page) next = putMessage(next, message);
  const old = next.windows[conversationId] ?? { ids: [], hasOlder: true };
  const first = old.ids[0] ?? Number.POSITIVE_INFINITY;
  const older = page.map((m) => m.id).filter((id) => id < first);
  return setWindow(next, conversationId, {
    ids: mergeSortedIds(old.ids, older),
    hasOlder: page.length >= pageSize,
  });
}

/**
 * Replaces a message the user can already see (an edit, a reaction, a comment count), wherever it is:
 * in the loaded messages and as the conversation's last message. A message that is not loaded is left
 * alone: its newest form comes with the page that loads it.
 */
export function refreshMessage(state: EngineState, message: Message): EngineState {
  let next = state;
  if (message.id in state.messages) next = putMessage(next, message);
  const conversation = next.conversations[message.conversation_id];
  const last = conversation?.last_message;
  if (conversation && last && last.id === message.id && !sameMessage(last, message)) {
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
  const wanted = new Set(stids);
  const found = new Set(ids);
  // The server names each message by id and stid: only stids not matched by an id need a search.
  for (const id of found) {
    const stid = state.messages[id]?.stid;
    if (stid !== undefined) wanted.delete(stid);
  }
  const window = state.windows[conversationId];
  if (wanted.size > 0) {
    for (const id of window?.ids ?? []) {
      const message = state.messages[id];
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
  let next = state;
  const messages = removeEntries(state.messages, ids);
  const receipts = removeEntries(state.receipts, ids);
  if (messages !== state.messages || receipts !== state.receipts) next = { ...next, messages, receipts };
  const window = state.windows[conversationId];
  if (window && window.ids.some((id) => gone.has(id))) {
    next = setWindow(next, conversationId, { ...window, ids: window.ids.filter((id) => !gone.has(id)) });
  }
  return next;
}

/** The window's messages, oldest first, skipping any id whose message is missing. */
export function windowMessages(state: EngineState, conversationId: number): Message[] {
  const ids = state.windows[conversationId]?.ids ?? [];
  const out: Message[] = [];
  for (const id of ids) {
    const message = state.messages[id];
    if (message) out.push(message);
  }
  return out;
}
