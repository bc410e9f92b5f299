import type { Db } from '../db/database';
import { badRequest, forbidden, notFound } from '../http/errors';
import { parseIdOrStid } from './ids';
import type { ConversationRow, MemberRow } from './rows';
import { loadMember } from './serialize';

export function findConversation(db: Db, raw: string): ConversationRow | undefined {
  const key = parseIdOrStid(raw);
  if (!key) throw badRequest('Invalid conversation ID provided');
  return 'id' in key
    ? db.prepare<[number], ConversationRow>('SELECT * FROM conversations WHERE id = ?').get(key.id)
    : db.prepare<[string], ConversationRow>('SELECT * FROM conversations WHERE stid = ?').get(key.stid);
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

export function adminIds(db: Db, conversationId: number): number[] {
  return db
    .prepare<[number], { user_id: number }>(
      'SELECT user_id FROM conversation_members WHERE conversation_id = ? AND is_admin = 1',
    )
    .all(conversationId)
    .map((r) => r.user_id);
}

/** Whether the user is an admin of the conversation's community (spec §6 "community owners/admins"). */
export function isCommunityAdmin(db: Db, communityId: number | null, userId: number): boolean {
  if (communityId == null) return false;
  const row = db
    .prepare<[number, number], { is_admin: number; is_owner: number }>(
      'SELECT is_admin, is_owner FROM community_members WHERE community_id = ? AND user_id = ?',
    )
    .get(communityId, userId);
  return row ? row.is_admin === 1 || row.is_owner === 1 : false;
}
