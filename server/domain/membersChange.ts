import type { ServerContext } from '../context';
import { type Store, sql } from '../db/store';
import type { AuthUser } from '../http/auth';
import { badRequest, forbidden, notFound } from '../http/errors';
import { adminIds, loadMember, memberIds, requireAdmin } from './access';
import { emitAddUser, emitConversationEdit, postChangeEvent } from './conversationEvents';
import { requireGroup } from './conversationRules';
import { findByIdOrStid } from './ids';
import { materializeMembers, type MemberField, resolveMembers } from './membersResolve';
import { lockConversation } from './messages';
import type { ConversationRow, MemberRow, UserRow } from './rows';
import { loadUser } from './serialize';

const nicknameOf = async (db: Store, userId: number) => (await loadUser(db, userId))?.nickname ?? '';

/** A user named in a path by numeric id or stid. An unknown one is 0: simply not a member. */
export async function parseUserKey(db: Store, raw: string): Promise<number> {
  const row = await findByIdOrStid<UserRow>(db, 'users', raw);
  if (row === null) throw badRequest('Invalid user ID provided');
  return row?.id ?? 0;
}

async function requireTarget(db: Store, conversationId: number, userId: number): Promise<MemberRow> {
  const target = await loadMember(db, conversationId, userId);
  if (!target) throw notFound('This user is not a member of the conversation');
  return target;
}

/**
 * Adds members to a group (spec §6: any member may, unless the group allows invites by admins only).
 * People already in the group are skipped. One `user_added` message reports the whole call: `event`
 * has `user_ids` (everybody added, in order), and `user_id` and `name` of the first of them.
 * Answers the ids actually added.
 */
export async function addMembers(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  caller: AuthUser,
  rows: MemberField[],
): Promise<number[]> {
  const { db } = ctx;
  requireGroup(conversation, 'Members cannot be added to a one-to-one chat');
  const admin = member.is_admin === 1;
  if (conversation.all_invite === 0 && !admin) throw forbidden('Only admins can add members to this group');
  const resolved = await resolveMembers(db, rows, caller);
  if (resolved.length === 0) throw badRequest('Add at least one member other than yourself');
  if (!admin && resolved.some((m) => m.isAdmin)) throw forbidden('Only admins can make other members admins');
  const now = ctx.clock.now();

  return ctx.events.transaction(async () => {
    const existing = new Set(await memberIds(db, conversation.id));
    const fresh = (await materializeMembers(db, resolved, now)).filter((m) => !existing.has(m.userId));
    const added: number[] = [];
    for (const m of fresh) {
      // A request adding the same person at the same time (PostgreSQL runs them side by side) may have
      // added them since `existing` was read: then they are that request's newcomer, not this one's.
      const changed = await db.run(
        sql`INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, joined_at)
            VALUES (${conversation.id}, ${m.userId}, ${m.isAdmin ? 1 : 0}, 0, ${now})
            ON CONFLICT (conversation_id, user_id) DO NOTHING`,
      );
      if (changed > 0) added.push(m.userId);
    }
    if (added.length === 0) return [];
    // The newcomers learn of the chat first, then everybody gets the one "added" message.
    await emitAddUser(ctx, conversation.id, added, await memberIds(db, conversation.id));
    const first = added[0] as number;
    await postChangeEvent(ctx, conversation.id, member.user_id, 'user_added', {
      user_id: first,
      user_ids: added,
      name: await nicknameOf(db, first),
    });
    return added;
  });
}

/**
 * Removes `targetId`, or lets the caller leave when it is themselves. Admins only remove others
 * (spec §6); the last admin of a group with other members must promote someone before leaving.
 * A group its last member leaves is deleted: nobody could see it any more.
 * Answers whether the caller is still a member.
 */
export async function removeMember(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  targetId: number,
): Promise<boolean> {
  const { db } = ctx;
  const leaving = targetId === member.user_id;
  requireGroup(conversation, leaving ? 'You cannot leave a one-to-one chat' : 'Members cannot be removed from a one-to-one chat');
  if (!leaving) requireAdmin(member, 'Only admins can remove members');
  // The checks run in the transaction, after the group's lock: two members leaving at once (or two admins)
  // are taken one after the other, so the second sees the first gone.
  await ctx.events.transaction(async () => {
    await lockConversation(db, conversation.id);
    await requireTarget(db, conversation.id, targetId);
    const before = await memberIds(db, conversation.id);
    if (leaving && member.is_admin === 1 && before.length > 1) {
      const admins = await adminIds(db, conversation.id);
      if (admins.length === 1 && admins[0] === member.user_id) {
        throw forbidden('An admin cannot remove themselves while they are the only admin. Make another member an admin first.');
      }
    }
    await db.run(sql`DELETE FROM conversation_members WHERE conversation_id = ${conversation.id} AND user_id = ${targetId}`);
    if (before.length === 1) {
      await ctx.events.emit([targetId], 'conversation_removed_user', { conversation_id: conversation.id, user_id: targetId });
      await db.run(sql`DELETE FROM conversations WHERE id = ${conversation.id}`);
      return;
    }
    await postChangeEvent(ctx, conversation.id, member.user_id, 'user_removed', {
      user_id: targetId,
      name: await nicknameOf(db, targetId),
    });
    await ctx.events.emit([...(await memberIds(db, conversation.id)), targetId], 'conversation_removed_user', {
      conversation_id: conversation.id,
      user_id: targetId,
    });
  });
  return !leaving;
}

/** Promotes or demotes a member (spec §6: admins only). A group always keeps at least one admin. */
export async function setAdmin(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  targetId: number,
  isAdmin: boolean,
): Promise<void> {
  const { db } = ctx;
  requireGroup(conversation, 'A one-to-one chat has no admins');
  requireAdmin(member, 'Only admins can promote or demote members');
  await ctx.events.transaction(async () => {
    // After the group's lock, as in removeMember: two admins demoting each other at once leave one.
    await lockConversation(db, conversation.id);
    const target = await requireTarget(db, conversation.id, targetId);
    if ((target.is_admin === 1) === isAdmin) return;
    if (!isAdmin && (await adminIds(db, conversation.id)).length === 1) {
      throw forbidden('A group needs at least one admin. Make another member an admin first.');
    }
    await db.run(
      sql`UPDATE conversation_members SET is_admin = ${isAdmin ? 1 : 0}
          WHERE conversation_id = ${conversation.id} AND user_id = ${targetId}`,
    );
    await emitConversationEdit(ctx, conversation.id, await memberIds(db, conversation.id));
  });
}

/** Deletes a group for everybody (spec §6: admins only). Members are told before the rows go. */
export async function deleteGroup(ctx: ServerContext, conversation: ConversationRow, member: MemberRow): Promise<void> {
  const { db } = ctx;
  requireGroup(conversation, 'A one-to-one chat cannot be deleted for everybody');
  requireAdmin(member, 'Only admins can delete the group');
  await ctx.events.transaction(async () => {
    await ctx.events.emit(await memberIds(db, conversation.id), 'deleted_conversation', { conversation_id: conversation.id });
    await db.run(sql`DELETE FROM conversations WHERE id = ${conversation.id}`);
  });
}
