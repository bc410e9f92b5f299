import type { Conversation, Message } from '../../protocol/entities';

/** Spec §6 "Delete", as the reference server applies it (docs/server.md "Delete for everybody"). */

/**
 * Delete for everybody: the owner may; in groups (channels included) admins may too; in a one-to-one
 * chat only the owner. System messages cannot be deleted for everybody.
 */
export function canDeleteForEverybody(message: Message, conversation: Conversation, selfId: number | null): boolean {
  if (selfId === null || message.type === 'system') return false;
  if (message.user_id === selfId) return true;
  return conversation.is_group && conversation.member.is_admin;
}

/** Delete for me (hide): any message the user sees, except pinned ones. */
export function canHide(message: Message): boolean {
  return !message.pinned;
}
