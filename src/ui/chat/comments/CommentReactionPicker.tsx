import { type KeyboardEvent, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useDismiss } from '../../common/useDismiss';
import { useFollowAnchor } from '../../common/useFollowAnchor';
import { QUICK_REACTION_ITEMS } from '../actions/quickReactions';
import { type PickerPlace, placePicker, withinWindow } from './pickerPlace';

/** Emoji per row of the grid, as in the message menu (two rows of five). */
const COLUMNS = 5;
const FOCUSABLE = 'button:not([disabled]), [href], textarea:not([disabled]), input:not([disabled])';

/**
 * The 10 quick reactions of a comment as a grid, placed beside its button by `placePicker`. The thread's
 * rows are transformed and its list scrolls, which would clip the picker or put it under the header, so it
 * is portalled into the thread's <dialog> (the top layer; `position: fixed` there is the window's) and
 * follows its button while the list scrolls. Focus starts on the first emoji; arrows move in the grid;
 * Escape or a press outside closes it (back to the button); Tab past either end closes it and goes on from
 * the button.
 */
export function CommentReactionPicker(props: {
  id: string;
  anchor: RefObject<HTMLButtonElement | null>;
  mine: (emoji: string) => boolean;
  onChoose: (emoji: string, on: boolean) => void;
  onClose: () => void;
}) {
  const { id, anchor, mine, onChoose, onClose } = props;
  const { t } = useTranslation();
  const menuRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<PickerPlace | null>(null);
  const host = anchor.current?.closest('dialog') ?? document.body;
  useDismiss(true, menuRef, onClose, { returnFocus: anchor, ignore: anchor });

  useFollowAnchor(anchor, () => {
    const button = anchor.current;
    const menu = menuRef.current;
    if (!button || !menu) return;
    const dialog = button.closest('dialog');
    const frame = dialog?.getBoundingClientRect() ?? { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
    const header = dialog?.querySelector('.thread__header')?.getBoundingClientRect();
    const bounds = withinWindow({ ...edges(frame), top: header ? header.bottom : frame.top }, window.innerWidth, window.innerHeight);
    setPlace(placePicker(edges(button.getBoundingClientRect()), { width: menu.offsetWidth, height: menu.offsetHeight }, bounds));
  });

  // Focus goes to the first emoji once the picker is in place (focusing earlier could scroll the list).
  const focused = useRef(false);
  useLayoutEffect(() => {
    if (!place || focused.current) return;
    focused.current = true;
    menuRef.current?.querySelector('button')?.focus({ preventScroll: true });
  }, [place]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLButtonElement>('button') ?? []);
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowRight') move(at + 1);
    else if (event.key === 'ArrowLeft') move(at - 1);
    else if (event.key === 'ArrowDown') move(at + COLUMNS);
    else if (event.key === 'ArrowUp') move(at - COLUMNS);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Tab' && (event.shiftKey ? at === 0 : at === items.length - 1)) {
      // Leaving the picker: on from its button, as if the picker sat right after it in the page.
      event.preventDefault();
      const button = anchor.current;
      onClose();
      if (!button) return;
      if (event.shiftKey) button.focus();
      else nextAfter(button)?.focus();
    }
  };

  return createPortal(
    <div
      ref={menuRef}
      id={id}
      className="comment__reaction-menu"
      role="group"
      aria-label={t('comments.addReaction')}
      onKeyDown={onKeyDown}
      style={place ? { top: place.top, left: place.left } : { visibility: 'hidden', top: 0, left: 0 }}
      data-placed={place ? '' : undefined}
    >
      {QUICK_REACTION_ITEMS.map(({ emoji, nameKey }) => (
        <button
          key={emoji}
          type="button"
          className="comment__reaction-option"
          onClick={() => onChoose(emoji, !mine(emoji))}
          aria-pressed={mine(emoji)}
          aria-label={t('chatActions.menu.reactWith', { name: t(`chatActions.reactions.${nameKey}`) })}
        >
          <span aria-hidden="true">{emoji}</span>
        </button>
      ))}
    </div>,
    host,
  );
}

const edges = (r: { top: number; left: number; bottom: number; right: number }) => ({ top: r.top, left: r.left, bottom: r.bottom, right: r.right });

/** The control that follows `element` in its dialog's (or page's) Tab order. */
function nextAfter(element: HTMLElement): HTMLElement | null {
  const scope = element.closest('dialog') ?? document.body;
  const all = Array.from(scope.querySelectorAll<HTMLElement>(FOCUSABLE));
  return all[all.indexOf(element) + 1] ?? element;
}
