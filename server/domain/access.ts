import type { Db } from '../db/database';
import { badRequest, forbidden, notFound } from '../http/errors';
import { findByIdOrStid } from './ids';
import type { ConversationRow, MemberRow } from './rows';

export function findConversation(db: Db, raw: string): ConversationRow | undefined {
  const row = findByIdOrStid<ConversationRow>(db, 'conversations', raw);
  if (row === null) throw badRequest('Invalid conversation ID provided');
  return row;
}

export function loadMember(db: Db, conversationId: number, userId: number): MemberRow | undefined {
  return db
    .prepare<[number, number], MemberRow>('SELECT * FROM conversation_members WHERE conversation_id = ? AND user_id = ?')
    .get(conversationId, userId);
}

/**
 * The conversation and the caller's membership. A non-member gets the same 404 as for an id that does
 * not exist, so the answer reveals nothing about conversations they are not in.
 */
export function requireMembership(db: Db, raw: string, userId: number): { conversation: ConversationRow; member: MemberRow } {
  const conversation = findConversation(db, raw);
  const member = conversation ? loadMember(db, conversation.id, userId) : undefined;
  if (!conversation || !member) throw notFound('Conversation not found');
  return { conversation, member };
}

export function requireAdmin(member: MemberRow, message: string): void {
  if (member.is_admin !== 1) throw forbidden(message);
}

export function memberIds(db: Db, conversationId: number): number[] {
  return db
    .prepare<[number], { user_id: number }>('SELECT user_id FROM conversation_members WHERE conversation_id = ?')
    .all(conversationId)
    .map((r) => r.user_id);
}

/** The conversation's admins, by id. */
export function adminIds(db: Db, conversationId: number): number[] {
  return db
    .prepare<[number], { user_id: number }>(
      'SELECT user_id FROM conversation_members WHERE conversation_id = ? AND is_admin = 1 ORDER BY user_id',
    )
    .all(conversationId)
    .map((r) => r.user_id);
}

export interface CommunityMembership {
  is_admin: number;
  is_owner: number;
}

export function communityMembership(db: Db, communityId: number, userId: number): CommunityMembership | undefined {
  return db
    .prepare<[number, number], CommunityMembership>(
      'SELECT is_admin, is_owner FROM community_members WHERE community_id = ? AND user_id = ?',
    )
    .get(communityId, userId);
}

/** Owners count as admins (spec §6 "community owners/admins"). */
export const isCommunityAdminRow = (m: CommunityMembership | undefined): boolean =>
  m !== undefined && (m.is_admin === 1 || m.is_owner === 1);

/** Whether the user is an admin of the conversation's community (spec §6 "community owners/admins"). */
export function isCommunityAdmin(db: Db, communityId: number | null, userId: number): boolean {
  return communityId != null && isCommunityAdminRow(communityMembership(db, communityId, userId));
}
