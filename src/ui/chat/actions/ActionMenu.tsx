import { type KeyboardEvent, type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { QUICK_REACTION_ITEMS } from './quickReactions';
import { useDismiss } from '../../common/useDismiss';
import { useFollowAnchor } from '../../common/useFollowAnchor';

export interface MenuChoices {
  reply: boolean;
  /** 'enabled', 'tooOld' (own, past the 45 minutes: shown disabled), or hidden. */
  edit: 'enabled' | 'tooOld' | 'hidden';
  delete: boolean;
  copy: boolean;
  /** The quick reactions the user has already given (choosing one again takes it back). */
  reacted: ReadonlySet<string>;
}

export type MenuAction =
  | { kind: 'reply' | 'edit' | 'delete' | 'copy' }
  | { kind: 'react'; emoji: string; on: boolean };

const ITEM = '[role="menuitem"], [role="menuitemcheckbox"]';

interface MenuPlace {
  top?: number;
  bottom?: number;
  left?: number;
  right?: number;
}

/**
 * Beside the button, opening towards the middle of the window (down from the upper half, up from the
 * lower half; rightwards from the left half, leftwards from the right half), so it stays in view.
 */
function placeMenu(rect: DOMRect): MenuPlace {
  const across =
    rect.left + rect.width / 2 < window.innerWidth / 2
      ? { left: Math.max(8, rect.left) }
      : { right: Math.max(8, window.innerWidth - rect.right) };
  return rect.top > window.innerHeight / 2
    ? { bottom: window.innerHeight - rect.top + 4, ...across }
    : { top: rect.bottom + 4, ...across };
}

/**
 * The action menu of one message (spec §2): quick reactions, reply, edit, delete, copy. Arrow keys move
 * (Home/End jump), Escape or a press outside closes it and focus goes back to the menu button. It is
 * portalled to the body and placed beside the button, so the list's transformed rows cannot clip it.
 */
export function ActionMenu(props: {
  id: string;
  anchor: RefObject<HTMLButtonElement | null>;
  choices: MenuChoices;
  onChoose: (action: MenuAction) => void;
  onClose: () => void;
}) {
  const { id, anchor, choices, onChoose, onClose } = props;
  const { t } = useTranslation();
  const menuRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<MenuPlace | null>(null);
  useDismiss(true, menuRef, onClose, { returnFocus: anchor, ignore: anchor });

  useFollowAnchor(anchor, () => {
    const button = anchor.current;
    if (button) setPlace(placeMenu(button.getBoundingClientRect()));
  });

  // Focus goes to the first item once, when the menu is first placed.
  const focused = useRef(false);
  useLayoutEffect(() => {
    if (!place || focused.current) return;
    focused.current = true;
    menuRef.current?.querySelector<HTMLElement>(ITEM)?.focus();
  }, [place]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>(ITEM) ?? []);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      items[(to + items.length) % items.length]?.focus();
    };
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') move(at + 1);
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(items.length - 1);
    else if (event.key === 'Tab') {
      // A menu is one stop: Tab leaves it, as Escape does.
      event.preventDefault();
      onClose();
    }
  };

  const item = (kind: 'reply' | 'edit' | 'delete' | 'copy', label: string, disabled = false) => (
    <button
      type="button"
      role="menuitem"
      tabIndex={-1}
      className={`action-menu-item${kind === 'delete' ? ' action-menu-danger' : ''}`}
      aria-disabled={disabled || undefined}
      onClick={() => {
        if (!disabled) onChoose({ kind });
      }}
    >
      {label}
    </button>
  );

  return createPortal(
    <div
      ref={menuRef}
      id={id}
      role="menu"
      aria-label={t('chatActions.menu.label')}
      className="action-menu"
      style={{ ...place, visibility: place ? 'visible' : 'hidden' }}
      onKeyDown={onKeyDown}
      // Clicks in the portal bubble through the React tree to the message row: they end here.
      onClick={(event) => event.stopPropagation()}
    >
      <div role="group" aria-label={t('chatActions.menu.react')} className="action-menu-reactions">
        {QUICK_REACTION_ITEMS.map(({ emoji, nameKey }) => {
          const on = choices.reacted.has(emoji);
          const name = t(`chatActions.reactions.${nameKey}`);
          return (
            <button
              key={emoji}
              type="button"
              role="menuitemcheckbox"
              aria-checked={on}
              tabIndex={-1}
              className="action-menu-emoji"
              aria-label={t('chatActions.menu.reactWith', { name })}
              title={name}
              onClick={() => onChoose({ kind: 'react', emoji, on: !on })}
            >
              <span aria-hidden="true">{emoji}</span>
            </button>
          );
        })}
      </div>
      <div role="separator" className="action-menu-separator" />
      {choices.reply ? item('reply', t('chatActions.menu.reply')) : null}
      {choices.edit === 'enabled' ? item('edit', t('chatActions.menu.edit')) : null}
      {choices.edit === 'tooOld' ? item('edit', t('chatActions.menu.tooOldToEdit'), true) : null}
      {choices.copy ? item('copy', t('chatActions.menu.copy')) : null}
      {choices.delete ? item('delete', t('chatActions.menu.delete')) : null}
    </div>,
    document.body,
  );
}
