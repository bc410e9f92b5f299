import type { AuthUser } from '../http/auth';
import type { ServerContext } from '../context';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { emitAddUser } from './conversationEvents';
import { type Flag, isOff, isOn, validDescription, validGroupName } from './conversationRules';
import { newStid } from './ids';
import { materializeMembers, type MemberField, resolveMembers } from './membersResolve';

/** The create form of spec §7. */
export interface CreateConversationBody {
  name?: string;
  description?: string;
  broadcast?: Flag;
  force_group?: Flag;
  immutable_settings?: Flag;
  suggested_group_tag?: string;
  settings?: {
    reply_to?: Flag;
    show_numbers_to_all?: Flag;
    user_notifications_to_all?: Flag;
    all_invite?: Flag;
  };
  member?: MemberField[];
}

/** The one-to-one chat of exactly these two people, if one exists. */
export function findOneToOne(db: Db, a: number, b: number): number | undefined {
  return db
    .prepare<[number, number], { id: number }>(
      `SELECT c.id FROM conversations c
       JOIN conversation_members ma ON ma.conversation_id = c.id AND ma.user_id = ?
       JOIN conversation_members mb ON mb.conversation_id = c.id AND mb.user_id = ?
       WHERE c.is_group = 0 AND c.group_type = 'normal' AND c.community_id IS NULL AND c.is_demo = 0
         AND (SELECT COUNT(*) FROM conversation_members x WHERE x.conversation_id = c.id) = 2
       ORDER BY c.id LIMIT 1`,
    )
    .get(a, b)?.id;
}

/**
 * Creates a one-to-one chat or a group (spec §7, §9 broadcast settings). Everything is checked before
 * the first write, and all writes share one transaction, so a refused request leaves nothing behind.
 * Answers the conversation id and whether it is new (an existing one-to-one is reused).
 */
export function createConversation(
  ctx: ServerContext,
  caller: AuthUser,
  body: CreateConversationBody,
): { id: number; created: boolean } {
  const { db } = ctx;
  const resolved = resolveMembers(db, body.member ?? [], caller);
  if (resolved.length === 0) throw badRequest('Add at least one member other than yourself');
  const settings = body.settings ?? {};
  const broadcast = isOn(body.broadcast) || isOn(settings.reply_to);
  const oneToOne = resolved.length === 1 && !isOn(body.force_group) && !broadcast;
  // Names are only checked for groups: a one-to-one chat is named after the other person.
  const name = oneToOne ? '' : validGroupName(body.name);
  const description = oneToOne ? '' : validDescription(body.description ?? '');
  const now = ctx.clock.now();

  return ctx.events.transaction(() => {
    const members = materializeMembers(db, resolved, now);
    if (oneToOne) {
      const other = (members[0] as { userId: number }).userId;
      const existing = findOneToOne(db, caller.id, other);
      if (existing !== undefined) return { id: existing, created: false };
    }
    const flags = broadcast
      ? { reply_to: 1, show: 1, notify: 1, invite: isOff(settings.all_invite) ? 0 : 1 }
      : {
          reply_to: 0,
          show: isOn(settings.show_numbers_to_all) ? 1 : 0,
          notify: isOn(settings.user_notifications_to_all) ? 1 : 0,
          invite: isOff(settings.all_invite) ? 0 : 1,
        };
    const id = Number(
      db
        .prepare(
          `INSERT INTO conversations (stid, name, description, is_group, group_type, reply_to, show_numbers_to_all,
             user_notifications_to_all, all_invite, owner_id, created_at)
           VALUES (?, ?, ?, ?, 'normal', ?, ?, ?, ?, ?, ?)`,
        )
        .run(newStid('c'), name, description, oneToOne ? 0 : 1, flags.reply_to, flags.show, flags.notify, flags.invite, caller.id, now)
        .lastInsertRowid,
    );
    const insert = db.prepare(
      `INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, joined_at) VALUES (?, ?, ?, ?, ?)`,
    );
    // In a one-to-one chat nobody is an admin: there is nothing to administer.
    insert.run(id, caller.id, oneToOne ? 0 : 1, oneToOne ? 0 : 1, now);
    for (const m of members) insert.run(id, m.userId, !oneToOne && m.isAdmin ? 1 : 0, 0, now);
    const everyone = [caller.id, ...members.map((m) => m.userId)];
    emitAddUser(ctx, id, everyone, everyone);
    return { id, created: true };
  });
}
