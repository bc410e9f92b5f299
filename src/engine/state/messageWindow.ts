import type { Message } from '../../protocol/entities';
import { holdsLatest, windowMessages } from './messageStore';
import type { ConversationMessages, EngineState, MessageWindow } from './types';
import type { MessageWindowView } from '../contract/types';

const EMPTY: MessageWindowView = { messages: [], hasOlder: false, hasNewer: false, loaded: false };

export function selectMessageWindow(state: EngineState, conversationId: number): MessageWindowView {
  const window = state.windows[conversationId];
  if (!window) return EMPTY;
  return {
    messages: windowMessages(state, conversationId),
    hasOlder: window.hasOlder,
    hasNewer: !holdsLatest(state, conversationId),
    loaded: true,
  };
}

/**
 * The window's messages built from the last view's: a window that only grew at its ends (a new message, a
 * page) or lost messages there (a trim) copies the unchanged run of the last array instead of looking up
 * every id again, and every unchanged message keeps its object. Whatever else changed (a message edited,
 * one deleted inside the run) is looked up afresh, id by id.
 */
function nextMessages(
  last: { ids: readonly number[]; byId: ConversationMessages | undefined; messages: readonly Message[] },
  window: MessageWindow,
  byId: ConversationMessages | undefined,
): readonly Message[] {
  const ids = window.ids;
  const complete = last.messages.length === last.ids.length;
  if (complete && last.ids.length > 0 && ids.length > 0) {
    const start = ids.indexOf(last.ids[0] as number);
    const lastStart = start < 0 ? last.ids.indexOf(ids[0] as number) : 0;
    // The run both arrays share: where it starts in each, and how long it is.
    const from = Math.max(start, 0);
    let length = 0;
    while (from + length < ids.length && lastStart + length < last.ids.length && ids[from + length] === last.ids[lastStart + length]) {
      length += 1;
    }
    const shared = last.messages.slice(lastStart, lastStart + length);
    // A shared message whose object changed (an edit, a reaction) is taken from the map: checked by identity.
    const unchanged = byId === last.byId || shared.every((m) => byId?.[m.id] === m);
    if (length > 0 && unchanged && (start >= 0 || lastStart >= 0)) {
      const pick = (range: readonly number[]) => {
        const out: Message[] = [];
        for (const id of range) {
          const message = byId?.[id];
          if (message) out.push(message);
        }
        return out;
      };
      const before = pick(ids.slice(0, from));
      const after = pick(ids.slice(from + length));
      if (before.length === from && after.length === ids.length - from - length) return [...before, ...shared, ...after];
    }
  }
  const out: Message[] = [];
  for (const id of ids) {
    const message = byId?.[id];
    if (message) out.push(message);
  }
  return out;
}

/**
 * A memoised `selectMessageWindow` for one conversation: the same view object while its window and its
 * messages are unchanged. Messages are kept per conversation, so a message elsewhere leaves this
 * conversation's map as it was and costs a few comparisons, not a walk over the window; a new message
 * here extends the last view's array (`nextMessages`), and every message that did not change keeps its
 * object, so a list can skip every row but the new one.
 */
export function createMessageWindowSelector(conversationId: number): (state: EngineState) => MessageWindowView {
  let last: MessageWindowView = EMPTY;
  let lastWindow: MessageWindow | undefined = undefined;
  let lastMessages: ConversationMessages | undefined = undefined;
  let lastLatest: number | undefined = undefined;
  let lastIds: readonly number[] = [];
  return (state) => {
    const window = state.windows[conversationId];
    const messages = state.messages[conversationId];
    const latest = state.conversations[conversationId]?.last_message?.id;
    if (window === lastWindow && messages === lastMessages && latest === lastLatest) return last;
    if (!window) {
      lastWindow = window;
      lastMessages = messages;
      lastLatest = latest;
      lastIds = [];
      last = EMPTY;
      return last;
    }
    const list =
      window.ids === lastIds && messages === lastMessages
        ? last.messages
        : nextMessages({ ids: lastIds, byId: lastMessages, messages: last.messages }, window, messages);
    lastWindow = window;
    lastMessages = messages;
    lastLatest = latest;
    lastIds = window.ids;
    const hasNewer = !holdsLatest(state, conversationId);
    const same =
      last.loaded &&
      last.hasOlder === window.hasOlder &&
      last.hasNewer === hasNewer &&
      list.length === last.messages.length &&
      (list === last.messages || list.every((m, i) => m === last.messages[i]));
    if (!same) last = { messages: list, hasOlder: window.hasOlder, hasNewer, loaded: true };
    return last;
  };
}
