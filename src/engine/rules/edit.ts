import { EDIT_WINDOW_MS } from '../../protocol/constants';
import type { Message } from '../../protocol/entities';

/**
 * Spec §4 "Editing" and §6 "Edit": own messages, not system ones nor ones deleted for everybody, within 45
 * minutes of creation.
 */

/** Milliseconds since the epoch of a message's created_at (epoch seconds as a string, spec §3). */
export function createdAtMs(message: Pick<Message, 'created_at'>): number {
  const seconds = Number(message.created_at);
  return Number.isFinite(seconds) ? seconds * 1000 : Number.NaN;
}

/**
 * Whether the signed-in user may edit `message` at `now` (ms): exactly 45:00 after creation still
 * counts, as on the server (docs/server.md). The server keeps milliseconds but sends whole seconds, so
 * this client's window can close up to a second early, never late: an edit it offers is accepted.
 */
export function canEdit(message: Message, selfId: number | null, now: number): boolean {
  if (selfId === null || message.user_id !== selfId || message.type === 'system' || message.deleted) return false;
  const created = createdAtMs(message);
  return Number.isFinite(created) && now - created <= EDIT_WINDOW_MS;
}

/** When the message stops being editable (ms since the epoch), for a timer that greys out the action. */
export function editDeadline(message: Message): number {
  return createdAtMs(message) + EDIT_WINDOW_MS;
}

/**
 * The Up arrow in an empty input (spec §4): the latest own message that can still be edited, in the
 * window's messages (oldest first), or null.
 */
export function editTarget(messages: readonly Message[], selfId: number | null, now: number): Message | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message && canEdit(message, selfId, now)) return message;
  }
  return null;
}
