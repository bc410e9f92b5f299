import type { Conversation, Message } from '../../protocol/entities';

/** Spec §6 "Delete", as the reference server applies it (docs/server.md "Delete for everybody"). */

/**
 * A message deleted for everybody: the tombstone the server keeps in its place (docs/server.md "A message
 * deleted for everybody is a tombstone"), shown as "This message was deleted" with its time.
 */
export function isDeleted(message: Pick<Message, 'deleted'>): boolean {
  return message.deleted === true;
}

/**
 * What is left of `message` once it is deleted for everybody, as the server's history pages send it: its
 * id, stid, sender, time and audience, and nothing it said (text, attachment, quote, reactions, pin).
 */
export function tombstoneOf(message: Message): Message {
  if (isDeleted(message)) return message;
  return {
    ...message,
    message: '',
    rich_message: null,
    edited_at: 0,
    attachment: null,
    reactions: [],
    quoted: null,
    discussion: message.discussion ? { comments_count: 0 } : null,
    pinned: false,
    deleted: true,
  };
}

/**
 * Delete for everybody: the owner may; in groups (channels included) admins may too; in a one-to-one
 * chat only the owner. System messages cannot be deleted for everybody, nor can a message already deleted.
 */
export function canDeleteForEverybody(message: Message, conversation: Conversation, selfId: number | null): boolean {
  if (selfId === null || message.type === 'system' || isDeleted(message)) return false;
  if (message.user_id === selfId) return true;
  return conversation.is_group && conversation.member.is_admin;
}

/** Delete for me (hide): any message the user sees, except pinned ones. */
export function canHide(message: Message): boolean {
  return !message.pinned;
}
