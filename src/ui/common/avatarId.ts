import type { Conversation } from '../../protocol/entities';
import { memberUserId } from '../chat/message/members';

/**
 * What a conversation's avatar colour hashes: in a one-to-one chat the other person (so they have the
 * same colour in the list, the header, the member list and their profile), otherwise the conversation.
 */
export function conversationAvatarId(conversation: Conversation, selfId: number | null): number {
  if (conversation.is_group) return conversation.id;
  // A snapshot without its member list (a fake, or a trimmed answer) falls back to the conversation.
  const other = (conversation.users ?? []).map((u) => memberUserId(u.user)).find((id) => id !== selfId && id > 0);
  return other ?? conversation.id;
}
