import type { Message } from '../../protocol/entities';
import { windowMessages } from './messageStore';
import type { EngineState } from './types';

/** A conversation's loaded run of history, oldest first, for a (virtualised) message list. */
export interface MessageWindowView {
  messages: readonly Message[];
  /** Older messages exist on the server: the UI may ask for the next older page. */
  hasOlder: boolean;
  /** Whether any page was loaded yet (an empty loaded chat and a chat not loaded yet look different). */
  loaded: boolean;
}

const EMPTY: MessageWindowView = { messages: [], hasOlder: false, loaded: false };

export function selectMessageWindow(state: EngineState, conversationId: number): MessageWindowView {
  const window = state.windows[conversationId];
  if (!window) return EMPTY;
  return { messages: windowMessages(state, conversationId), hasOlder: window.hasOlder, loaded: true };
}

/**
 * A memoised `selectMessageWindow` for one conversation: the same view object while its window and its
 * messages are unchanged. Messages are kept per conversation, so a message elsewhere leaves this
 * conversation's map as it was and costs two comparisons, not a walk over the window.
 */
export function createMessageWindowSelector(conversationId: number): (state: EngineState) => MessageWindowView {
  let last: MessageWindowView = EMPTY;
  let lastWindow: unknown = undefined;
  let lastMessages: unknown = undefined;
  return (state) => {
    const window = state.windows[conversationId];
    const messages = state.messages[conversationId];
    if (window === lastWindow && messages === lastMessages) return last;
    lastWindow = window;
    lastMessages = messages;
    const view = selectMessageWindow(state, conversationId);
    const same =
      view.loaded === last.loaded &&
      view.hasOlder === last.hasOlder &&
      view.messages.length === last.messages.length &&
      view.messages.every((m, i) => m === last.messages[i]);
    if (!same) last = view;
    return last;
  };
}
