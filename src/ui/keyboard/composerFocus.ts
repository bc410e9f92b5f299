import { type RefObject, useEffect } from 'react';

/**
 * A chat opened from the keyboard (Enter on its row in the list, or a shortcut) puts the cursor in its
 * message box (issue 23), so the next keys typed are the message, not 20 Tab presses. The chat's composer
 * mounts later than the keypress (the chat view loads first): the request waits here, for a short while.
 */
const WAIT_MS = 5_000;
const EVENT = 'messenger:focus-composer';

let pending: { conversationId: number; at: number } | null = null;

/** Asks the composer of `conversationId` to take the focus, now if it is shown, else as soon as it mounts. */
export function focusComposerOf(conversationId: number): void {
  pending = { conversationId, at: Date.now() };
  window.dispatchEvent(new CustomEvent<number>(EVENT, { detail: conversationId }));
}

function take(conversationId: number): boolean {
  const wanted = pending !== null && pending.conversationId === conversationId && Date.now() - pending.at < WAIT_MS;
  if (wanted) pending = null;
  return wanted;
}

/** In the composer: takes the focus when its chat was opened from the keyboard. */
export function useComposerFocus(conversationId: number, input: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const focus = () => {
      if (take(conversationId)) input.current?.focus();
    };
    focus();
    const onRequest = (event: Event) => {
      if ((event as CustomEvent<number>).detail === conversationId) focus();
    };
    window.addEventListener(EVENT, onRequest);
    return () => window.removeEventListener(EVENT, onRequest);
  }, [conversationId, input]);
}
