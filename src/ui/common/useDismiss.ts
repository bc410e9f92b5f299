import { type KeyboardEvent as ReactKeyboardEvent, type RefObject, useEffect, useRef } from 'react';

/**
 * Closes a menu, dialog or viewer on Escape or on a press outside it (spec §2 "Chat view"), and gives
 * focus back to what had it before (a keyboard user lands where they were). `returnFocus` names the
 * element to go back to; by default the one focused when the overlay opened.
 */
export function useDismiss(
  open: boolean,
  container: RefObject<HTMLElement | null>,
  close: () => void,
  options: { returnFocus?: RefObject<HTMLElement | null>; ignore?: RefObject<HTMLElement | null> } = {},
): void {
  const closeRef = useRef(close);
  closeRef.current = close;
  const { returnFocus, ignore } = options;
  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      closeRef.current();
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node | null;
      if (!target || container.current?.contains(target) || ignore?.current?.contains(target)) return;
      closeRef.current();
    };
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer, true);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
      // Back to the opener, unless focus already went somewhere on purpose (a field, another control).
      const back = returnFocus?.current ?? previous;
      const active = document.activeElement;
      if (back?.isConnected && (active === null || active === document.body || container.current?.contains(active))) {
        back.focus();
      }
    };
  }, [open, container, returnFocus, ignore]);
}

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select, textarea, video[controls], [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside a modal dialog (aria-modal means nothing outside is reachable). */
export function trapTab(event: ReactKeyboardEvent, container: HTMLElement | null): void {
  if (event.key !== 'Tab' || !container) return;
  const items = Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE));
  if (items.length === 0) {
    event.preventDefault();
    return;
  }
  const first = items[0] as HTMLElement;
  const last = items[items.length - 1] as HTMLElement;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || !container.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !container.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}
