import type { Message } from '../../protocol/entities';
import { countsAsUnread } from './unread';
import type { NotifyPermission } from '../contract/types';

/** Notification rules: spec §4 "Unread" and §8, design.md §4 "Notifications". */

export interface NotifyInput {
  message: Pick<Message, 'user_id'> & Partial<Pick<Message, 'type' | 'attachment'>>;
  selfId: number | null;
  settings: { notificationsEnable: boolean };
  permission: NotifyPermission;
  /** The message's chat is open in a tab that is visible and focused. */
  openVisibleFocused: boolean;
  /** The user muted the message's chat (rules/mute.ts): no notification, no sound. */
  muted: boolean;
}

/**
 * A notification is due for another user's message, when enabled and permitted, unless its chat is in
 * view or muted. Never for a system event (a rename, members added...: rules/unread.ts), which does
 * not count as unread either.
 */
export function shouldNotify(input: NotifyInput): boolean {
  return (
    countsAsUnread(input.message, input.selfId) &&
    input.settings.notificationsEnable &&
    input.permission === 'granted' &&
    !input.openVisibleFocused &&
    !input.muted
  );
}

export const NOTIFICATION_BODY_MAX = 100;

/**
 * Made on first use, not when the module loads: building a segmenter loads ICU's break rules (some 30 ms of
 * a page's start on a slow machine), and the engine's rules load with every tab, most of which never cut a
 * notification.
 */
let graphemes: Intl.Segmenter | null = null;

/**
 * The notification body (spec §5 "Display limits"): at most 100 characters, then an ellipsis.
 * Characters are graphemes, so an emoji or an accented letter is never cut in half.
 */
export function notificationBody(text: string, max = NOTIFICATION_BODY_MAX): string {
  const trimmed = text.trim();
  if (trimmed.length <= max) return trimmed;
  const parts: string[] = [];
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(trimmed)) {
    if (parts.length === max) return `${parts.join('').trimEnd()}…`;
    parts.push(segment);
  }
  return trimmed;
}
