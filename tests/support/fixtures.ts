import { newStid } from '../../server/domain/ids';
import { type Store, sql } from '../../server/db/store';

export interface ConversationFixture {
  members: number[];
  admins?: number[];
  name?: string;
  isGroup?: boolean;
  groupType?: 'normal' | 'channel' | 'feed';
  broadcast?: boolean;
  communityId?: number | null;
  announcements?: boolean;
  readOnly?: boolean;
  demo?: boolean;
  canCreatePosts?: number[];
  now?: number;
}

/**
 * Inserts a conversation straight into the database, for tests of calls that need one to exist without
 * depending on the create-conversation route. Its rows are written in one transaction (or the caller's).
 */
export async function insertConversation(db: Store, f: ConversationFixture): Promise<{ id: number; stid: string }> {
  const now = f.now ?? Date.now();
  const stid = newStid('c');
  return db.transaction(async () => {
    const { id } = (await db.get<{ id: number }>(
      sql`INSERT INTO conversations (stid, name, is_group, group_type, reply_to, owner_id, community_id,
            is_community_announcements, is_demo, read_only, created_at)
          VALUES (${stid}, ${f.name ?? ''}, ${(f.isGroup ?? f.members.length > 2) ? 1 : 0}, ${f.groupType ?? 'normal'},
            ${f.broadcast ? 1 : 0}, ${f.admins?.[0] ?? f.members[0] ?? null}, ${f.communityId ?? null},
            ${f.announcements ? 1 : 0}, ${f.demo ? 1 : 0}, ${f.readOnly ? 1 : 0}, ${now})
          RETURNING id`,
    ))!;
    for (const [i, userId] of f.members.entries()) {
      const admin = f.admins?.includes(userId) ?? false;
      await db.run(
        sql`INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, can_create_posts, joined_at)
            VALUES (${id}, ${userId}, ${admin ? 1 : 0}, ${admin && i === 0 ? 1 : 0},
              ${f.canCreatePosts?.includes(userId) ? 1 : 0}, ${now})`,
      );
    }
    return { id, stid };
  });
}

export async function insertCommunity(
  db: Store,
  f: { name: string; ownerId: number; admins?: number[]; members?: number[]; countryCode?: string; now?: number },
): Promise<{ id: number; stid: string }> {
  const now = f.now ?? Date.now();
  const stid = newStid('m');
  return db.transaction(async () => {
    const { id } = (await db.get<{ id: number }>(
      sql`INSERT INTO communities (stid, name, country_code, owner_id, created_at)
          VALUES (${stid}, ${f.name}, ${f.countryCode ?? '62'}, ${f.ownerId}, ${now}) RETURNING id`,
    ))!;
    const insert = (userId: number, admin: number, owner: number) =>
      db.run(
        sql`INSERT INTO community_members (community_id, user_id, is_admin, is_owner, joined_at)
            VALUES (${id}, ${userId}, ${admin}, ${owner}, ${now})`,
      );
    await insert(f.ownerId, 1, 1);
    for (const a of f.admins ?? []) if (a !== f.ownerId) await insert(a, 1, 0);
    for (const m of f.members ?? []) if (m !== f.ownerId && !(f.admins ?? []).includes(m)) await insert(m, 0, 0);
    return { id, stid };
  });
}

/**
 * A community's three usual channels: an announcements feed, an open channel and a read-only one, each with
 * `members`, the owner their admin and the only one who may post.
 */
export async function insertCommunityChannels(
  db: Store,
  f: { communityId: number; ownerId: number; members: number[] },
): Promise<Record<'announcements' | 'general' | 'readOnly', { id: number; stid: string }>> {
  const channel = (name: string, extra: { announcements?: boolean; readOnly?: boolean }) =>
    insertConversation(db, {
      name,
      members: f.members,
      admins: [f.ownerId],
      canCreatePosts: [f.ownerId],
      isGroup: true,
      groupType: extra.announcements ? 'feed' : 'channel',
      communityId: f.communityId,
      ...extra,
    });
  // One after the other: the ids come in this order, as they did.
  const announcements = await channel('Announcements', { announcements: true });
  const general = await channel('General', {});
  const readOnly = await channel('Rules', { readOnly: true });
  return { announcements, general, readOnly };
}
