/**
 * The app-wide keyboard shortcuts (issue 23), as the shortcut list shows them. `keys` are what is pressed,
 * each a combination of `+`-joined key names; `text` is the key of what it does.
 */
export interface Shortcut {
  keys: readonly string[];
  text:
    | 'shortcuts.search'
    | 'shortcuts.previousChat'
    | 'shortcuts.nextChat'
    | 'shortcuts.list'
    | 'shortcuts.close'
    | 'shortcuts.send'
    | 'shortcuts.newLine'
    | 'shortcuts.editLast';
}

export const SHORTCUTS: readonly Shortcut[] = [
  { keys: ['Ctrl+K', '/'], text: 'shortcuts.search' },
  { keys: ['Alt+↑'], text: 'shortcuts.previousChat' },
  { keys: ['Alt+↓'], text: 'shortcuts.nextChat' },
  { keys: ['?'], text: 'shortcuts.list' },
  { keys: ['Esc'], text: 'shortcuts.close' },
  { keys: ['Enter'], text: 'shortcuts.send' },
  { keys: ['Shift+Enter'], text: 'shortcuts.newLine' },
  { keys: ['↑'], text: 'shortcuts.editLast' },
];

/** What a keydown asks of the app, or null when it is no shortcut (or belongs to what has the focus). */
export type ShortcutAction = 'search' | 'previousChat' | 'nextChat' | 'list';

/** Whether keys typed here are text: there `/` and `?` are characters, not shortcuts. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}

type KeyFacts = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey' | 'target'>;

export function shortcutOf(event: KeyFacts): ShortcutAction | null {
  const { key, ctrlKey, metaKey, altKey } = event;
  if ((ctrlKey || metaKey) && !altKey && key.toLowerCase() === 'k') return 'search';
  if (altKey && !ctrlKey && !metaKey && key === 'ArrowUp') return 'previousChat';
  if (altKey && !ctrlKey && !metaKey && key === 'ArrowDown') return 'nextChat';
  if (ctrlKey || metaKey || altKey || isTextField(event.target)) return null;
  if (key === '/') return 'search';
  if (key === '?') return 'list';
  return null;
}

/** The chat before or after `openId` in the list's order (newest first), or the first one when none is open. */
export function neighbourChat(ids: readonly number[], openId: number | null, step: -1 | 1): number | null {
  if (ids.length === 0) return null;
  const at = openId === null ? -1 : ids.indexOf(openId);
  if (at === -1) return ids[0] ?? null;
  return ids[at + step] ?? null;
}
