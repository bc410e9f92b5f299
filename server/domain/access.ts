import { type Store, sql } from '../db/store';
import { badRequest, forbidden, notFound } from '../http/errors';
import { findByIdOrStid } from './ids';
import type { ConversationRow, MemberRow } from './rows';

export async function findConversation(db: Store, raw: string): Promise<ConversationRow | undefined> {
  const row = await findByIdOrStid<ConversationRow>(db, 'conversations', raw);
  if (row === null) throw badRequest('Invalid conversation ID provided');
  return row;
}

export async function loadMember(db: Store, conversationId: number, userId: number): Promise<MemberRow | undefined> {
  return db.get<MemberRow>(
    sql`SELECT * FROM conversation_members WHERE conversation_id = ${conversationId} AND user_id = ${userId}`,
  );
}

/**
 * The conversation and the caller's membership. A non-member gets the same 404 as for an id that does
 * not exist, so the answer reveals nothing about conversations they are not in.
 */
export async function requireMembership(
  db: Store,
  raw: string,
  userId: number,
): Promise<{ conversation: ConversationRow; member: MemberRow }> {
  const conversation = await findConversation(db, raw);
  const member = conversation ? await loadMember(db, conversation.id, userId) : undefined;
  if (!conversation || !member) throw notFound('Conversation not found');
  return { conversation, member };
}

export function requireAdmin(member: MemberRow, message: string): void {
  if (member.is_admin !== 1) throw forbidden(message);
}

export async function memberIds(db: Store, conversationId: number): Promise<number[]> {
  const rows = await db.all<{ user_id: number }>(
    sql`SELECT user_id FROM conversation_members WHERE conversation_id = ${conversationId}`,
  );
  return rows.map((r) => r.user_id);
}

/** The conversation's admins, by id. */
export async function adminIds(db: Store, conversationId: number): Promise<number[]> {
  const rows = await db.all<{ user_id: number }>(
    sql`SELECT user_id FROM conversation_members WHERE conversation_id = ${conversationId} AND is_admin = 1
        ORDER BY user_id`,
  );
  return rows.map((r) => r.user_id);
}

export interface CommunityMembership {
  is_admin: number;
  is_owner: number;
}

export async function communityMembership(
  db: Store,
  communityId: number,
  userId: number,
): Promise<CommunityMembership | undefined> {
  return db.get<CommunityMembership>(
    sql`SELECT is_admin, is_owner FROM community_members WHERE community_id = ${communityId} AND user_id = ${userId}`,
  );
}

/** Owners count as admins (spec §6 "community owners/admins"). */
export const isCommunityAdminRow = (m: CommunityMembership | undefined): boolean =>
  m !== undefined && (m.is_admin === 1 || m.is_owner === 1);

/** Whether the user is an admin of the conversation's community (spec §6 "community owners/admins"). */
export async function isCommunityAdmin(db: Store, communityId: number | null, userId: number): Promise<boolean> {
  return communityId != null && isCommunityAdminRow(await communityMembership(db, communityId, userId));
}
