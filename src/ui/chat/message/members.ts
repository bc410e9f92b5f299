import type { Conversation, MemberUser } from '../../../protocol/entities';

/**
 * A member's user id. The API names it `id` or `user_id` (spec §3 "Conversation": users [{user{id/user_id}}]),
 * so whichever is present counts; both are the same number when both are sent.
 */
export function memberUserId(user: Pick<MemberUser, 'id' | 'user_id'>): number {
  const { user_id: userId, id } = user as { user_id?: number; id?: number };
  return typeof userId === 'number' && userId > 0 ? userId : (id ?? 0);
}

/** The member with this user id in the conversation's member list, if listed. */
export function findMember(conversation: Pick<Conversation, 'users'>, userId: number): MemberUser | undefined {
  return conversation.users.find((u) => memberUserId(u.user) === userId)?.user;
}
