import type { Conversation, Message } from '../../../protocol/entities';
import { isAdmin, isCommunityChat } from '../composer/sendRules';
import { memberUserId } from '../message/members';

/** Pure rules of the message actions and reactions (spec §6 "Reply", "Reactions"). */

/** Spec §6 "Reply": normal chats; in community channels only community owners and admins. Not in demo chats. */
export function canReply(conversation: Conversation): boolean {
  if (conversation.is_demo) return false;
  return isCommunityChat(conversation) ? isAdmin(conversation) : true;
}

/** Spec §6 "Reactions": the list of who reacted is hidden in community channels. */
export function showsReactionUsers(conversation: Pick<Conversation, 'group_type'>): boolean {
  return !isCommunityChat(conversation);
}

/** Whether the user is among those who reacted with this reaction. */
export function reactedBy(message: Message, emoji: string, userId: number): boolean {
  return message.reactions.some((r) => r.reaction === emoji && r.users.some((u) => u.user_id === userId));
}

/**
 * The names for a reaction's tooltip: the members' nicknames, the user as `self`, and people no longer
 * in the member list as `unknown`, in the order they reacted.
 */
export function reactionUserNames(
  userIds: readonly number[],
  conversation: Pick<Conversation, 'users'>,
  selfId: number,
  labels: { self: string; unknown: string },
): string[] {
  const byId = new Map<number, string>();
  for (const { user } of conversation.users) byId.set(memberUserId(user), user.nickname);
  return userIds.map((id) => (id === selfId ? labels.self : (byId.get(id) ?? labels.unknown)));
}
