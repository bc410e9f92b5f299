import { type RefObject, useEffect, useRef, useSyncExternalStore } from 'react';

/**
 * On a touch screen the "Message actions" button is not on every bubble (there is no hover to show it):
 * a tap on a message reveals its button, and a long press opens its menu at once. One message at a time
 * shows its button; a tap on another message moves it there, a tap outside the messages hides it.
 */

/** How long a finger rests on a message before its menu opens. */
export const LONG_PRESS_MS = 500;
/** A finger that moves further than this is scrolling, not pressing. */
const SLOP_PX = 10;

/** Presses on these go to the control pressed (a link, a picture, a reaction), not to the message. */
const CONTROLS = 'a[href], button, input, select, textarea, video, audio, label, summary, [role="button"], [tabindex]';

let revealed: number | null = null;
const listeners = new Set<() => void>();

function set(messageId: number | null): void {
  if (revealed === messageId) return;
  revealed = messageId;
  if (messageId === null) document.removeEventListener('pointerdown', onPressOutside, true);
  else document.addEventListener('pointerdown', onPressOutside, true);
  for (const listener of listeners) listener();
}

/** A touch outside every message (the list's gaps, the composer, the header) hides the revealed button. */
function onPressOutside(event: PointerEvent): void {
  if (event.pointerType === 'mouse') return;
  const target = event.target instanceof Element ? event.target : null;
  // The menu and the delete dialog are portalled outside the message, but belong to it.
  if (target?.closest('.msg, [role="menu"], [role="dialog"]')) return;
  set(null);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function revealActions(messageId: number | null): void {
  set(messageId);
}

/** Whether this message's actions button is revealed by a touch. */
export function useRevealed(messageId: number): boolean {
  return useSyncExternalStore(
    subscribe,
    () => revealed === messageId,
    () => false,
  );
}

const isControl = (target: EventTarget | null, row: Element): boolean => {
  const control = target instanceof Element ? target.closest(CONTROLS) : null;
  return control !== null && row.contains(control);
};

/**
 * Listens for touches on the message around `inside` (its `.msg` row): a tap toggles the button, a long
 * press reveals it and calls `onLongPress`. Mouse clicks are left alone (hover shows the button there),
 * as are presses on the message's own controls. Nothing happens outside a message row.
 */
export function useTouchReveal(inside: RefObject<HTMLElement | null>, messageId: number, onLongPress: () => void): void {
  const longPress = useRef(onLongPress);
  longPress.current = onLongPress;
  useEffect(() => {
    const row = inside.current?.closest<HTMLElement>('.msg');
    if (!row) return;
    let touch = false;
    let timer: number | undefined;
    let start = { x: 0, y: 0 };
    let pressedLong = false;
    const stop = () => {
      window.clearTimeout(timer);
      timer = undefined;
    };
    const onDown = (event: PointerEvent) => {
      touch = event.pointerType !== 'mouse';
      pressedLong = false;
      stop();
      if (!touch || !event.isPrimary || isControl(event.target, row)) return;
      start = { x: event.clientX, y: event.clientY };
      timer = window.setTimeout(() => {
        timer = undefined;
        pressedLong = true;
        set(messageId);
        longPress.current();
      }, LONG_PRESS_MS);
    };
    const onMove = (event: PointerEvent) => {
      if (timer !== undefined && Math.hypot(event.clientX - start.x, event.clientY - start.y) > SLOP_PX) stop();
    };
    const onClick = (event: MouseEvent) => {
      if (!touch || isControl(event.target, row)) return;
      // The press that opened the menu is not also a tap that hides the button again.
      if (pressedLong) {
        pressedLong = false;
        return;
      }
      set(revealed === messageId ? null : messageId);
    };
    // A long press on a message is the menu's, not the browser's (its text menu or "copy image").
    const onContextMenu = (event: MouseEvent) => {
      if (touch && !isControl(event.target, row)) event.preventDefault();
    };
    row.addEventListener('pointerdown', onDown);
    row.addEventListener('pointermove', onMove);
    row.addEventListener('pointerup', stop);
    row.addEventListener('pointercancel', stop);
    row.addEventListener('click', onClick);
    row.addEventListener('contextmenu', onContextMenu);
    return () => {
      stop();
      row.removeEventListener('pointerdown', onDown);
      row.removeEventListener('pointermove', onMove);
      row.removeEventListener('pointerup', stop);
      row.removeEventListener('pointercancel', stop);
      row.removeEventListener('click', onClick);
      row.removeEventListener('contextmenu', onContextMenu);
      // A row that leaves the list (scrolled out of the window, deleted) takes its revealed button along.
      if (revealed === messageId) set(null);
    };
  }, [inside, messageId]);
}
