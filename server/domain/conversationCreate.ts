import type { AuthUser } from '../http/auth';
import type { ServerContext } from '../context';
import { list, type Store, sql } from '../db/store';
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
export async function findOneToOne(db: Store, a: number, b: number): Promise<number | undefined> {
  const row = await db.get<{ id: number }>(
    sql`SELECT c.id FROM conversations c
        JOIN conversation_members ma ON ma.conversation_id = c.id AND ma.user_id = ${a}
        JOIN conversation_members mb ON mb.conversation_id = c.id AND mb.user_id = ${b}
        WHERE c.is_group = 0 AND c.group_type = 'normal' AND c.community_id IS NULL AND c.is_demo = 0
          AND (SELECT COUNT(*) FROM conversation_members x WHERE x.conversation_id = c.id) = 2
        ORDER BY c.id LIMIT 1`,
  );
  return row?.id;
}

/**
 * Creates a one-to-one chat or a group (spec §7, §9 broadcast settings). Everything is checked before
 * the first write, and all writes share one transaction, so a refused request leaves nothing behind.
 * Answers the conversation id and whether it is new (an existing one-to-one is reused).
 */
export async function createConversation(
  ctx: ServerContext,
  caller: AuthUser,
  body: CreateConversationBody,
): Promise<{ id: number; created: boolean }> {
  const { db } = ctx;
  const resolved = await resolveMembers(db, body.member ?? [], caller);
  if (resolved.length === 0) throw badRequest('Add at least one member other than yourself');
  const settings = body.settings ?? {};
  const broadcast = isOn(body.broadcast) || isOn(settings.reply_to);
  const oneToOne = resolved.length === 1 && !isOn(body.force_group) && !broadcast;
  // Names are only checked for groups: a one-to-one chat is named after the other person.
  const name = oneToOne ? '' : validGroupName(body.name);
  const description = oneToOne ? '' : validDescription(body.description ?? '');
  const now = ctx.clock.now();

  return ctx.events.transaction(async () => {
    const members = await materializeMembers(db, resolved, now);
    if (oneToOne) {
      const other = (members[0] as { userId: number }).userId;
      // Two requests for the same pair may run at once (PostgreSQL runs transactions side by side): the
      // second waits here, on both users' rows (in id order, as the event log locks them), until the first
      // committed, and then finds its chat. A no-op update is the lock both stores understand.
      await db.run(sql`UPDATE event_counters SET seq = seq WHERE user_id IN ${list([caller.id, other].sort((x, y) => x - y))}`);
      const existing = await findOneToOne(db, caller.id, other);
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
    const inserted = await db.get<{ id: number }>(
      sql`INSERT INTO conversations (stid, name, description, is_group, group_type, reply_to, show_numbers_to_all,
            user_notifications_to_all, all_invite, owner_id, created_at)
          VALUES (${newStid('c')}, ${name}, ${description}, ${oneToOne ? 0 : 1}, 'normal', ${flags.reply_to}, ${flags.show},
            ${flags.notify}, ${flags.invite}, ${caller.id}, ${now})
          RETURNING id`,
    );
    const id = inserted!.id;
    const insert = (userId: number, isAdmin: number, isOwner: number, contactName: string | null = null) =>
      db.run(
        sql`INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, joined_at, contact_name)
            VALUES (${id}, ${userId}, ${isAdmin}, ${isOwner}, ${now}, ${contactName})`,
      );
    // In a one-to-one chat nobody is an admin: there is nothing to administer. The name the caller typed
    // names the chat on their side while the other person has no nickname (issue 23: "Okänd", not the number).
    const contactName = oneToOne ? resolved[0]?.name || null : null;
    await insert(caller.id, oneToOne ? 0 : 1, oneToOne ? 0 : 1, contactName);
    for (const m of members) await insert(m.userId, !oneToOne && m.isAdmin ? 1 : 0, 0);
    const everyone = [caller.id, ...members.map((m) => m.userId)];
    await emitAddUser(ctx, id, everyone, everyone);
    return { id, created: true };
  });
}
