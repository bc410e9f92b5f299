import type { Conversation, Message } from '../../protocol/entities';

/**
 * Who wrote a group's message (groups and broadcast groups; a channel's posts speak for the channel), named
 * in the row and the notification as WhatsApp and Telegram do (issue 23).
 */
export function groupSenderName(
  message: Pick<Message, 'user_id' | 'type'>,
  selfId: number | null,
  conversation: Conversation | null | undefined,
  members: Conversation['users'] = conversation?.users ?? [],
): string | null {
  if (!conversation?.is_group || conversation.group_type !== 'normal' || conversation.community_id !== null) return null;
  if (message.type === 'system' || message.user_id === selfId) return null;
  const sender = members.find(({ user }) => (user.user_id || user.id) === message.user_id);
  return sender?.user.nickname || null;
}
