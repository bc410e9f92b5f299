import type { Message } from '../../protocol/entities';

/** What counts as unread (spec §4 "Unread", issue 10), as the reference server counts it (docs/server.md). */

/**
 * A system event: a row reporting a change (a rename, a new description or picture, members added or
 * removed: spec §3 event attachments), not something anybody wrote. The server stores it with type
 * 'system' and an attachment of type 'event'; either mark is enough.
 */
export function isSystemEvent(message: Partial<Pick<Message, 'type' | 'attachment'>>): boolean {
  return message.type === 'system' || message.attachment?.type === 'event';
}

/**
 * Whether a message counts toward the unread count, the unread badge, the Unread filter and
 * notifications: another user's message that is not a system event, nor deleted for everybody (as the
 * server counts, docs/server.md). Events and tombstones are shown in the chat, and reading past them is
 * reading, but they are never what makes a chat unread.
 */
export function countsAsUnread(
  message: Pick<Message, 'user_id'> & Partial<Pick<Message, 'type' | 'attachment' | 'deleted'>>,
  selfId: number | null,
): boolean {
  return selfId !== null && message.user_id !== selfId && !isSystemEvent(message) && message.deleted !== true;
}
