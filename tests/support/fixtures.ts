import type { Db } from '../../server/db/database';
import { newStid } from '../../server/domain/ids';

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
 * depending on the create-conversation route.
 */
export function insertConversation(db: Db, f: ConversationFixture): { id: number; stid: string } {
  const now = f.now ?? Date.now();
  const stid = newStid('c');
  const id = Number(
    db
      .prepare(
        `INSERT INTO conversations (stid, name, is_group, group_type, reply_to, owner_id, community_id,
           is_community_announcements, is_demo, read_only, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        stid,
        f.name ?? '',
        (f.isGroup ?? f.members.length > 2) ? 1 : 0,
        f.groupType ?? 'normal',
        f.broadcast ? 1 : 0,
        f.admins?.[0] ?? f.members[0] ?? null,
        f.communityId ?? null,
        f.announcements ? 1 : 0,
        f.demo ? 1 : 0,
        f.readOnly ? 1 : 0,
        now,
      ).lastInsertRowid,
  );
  const insert = db.prepare(
    `INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, can_create_posts, joined_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  f.members.forEach((userId, i) => {
    const admin = f.admins?.includes(userId) ?? false;
    insert.run(id, userId, admin ? 1 : 0, admin && i === 0 ? 1 : 0, f.canCreatePosts?.includes(userId) ? 1 : 0, now);
  });
  return { id, stid };
}

export function insertCommunity(
  db: Db,
  f: { name: string; ownerId: number; admins?: number[]; members?: number[]; countryCode?: string; now?: number },
): { id: number; stid: string } {
  const now = f.now ?? Date.now();
  const stid = newStid('m');
  const id = Number(
    db
      .prepare('INSERT INTO communities (stid, name, country_code, owner_id, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(stid, f.name, f.countryCode ?? '62', f.ownerId, now).lastInsertRowid,
  );
  const insert = db.prepare(
    'INSERT INTO community_members (community_id, user_id, is_admin, is_owner, joined_at) VALUES (?, ?, ?, ?, ?)',
  );
  insert.run(id, f.ownerId, 1, 1, now);
  for (const a of f.admins ?? []) if (a !== f.ownerId) insert.run(id, a, 1, 0, now);
  for (const m of f.members ?? []) if (m !== f.ownerId && !(f.admins ?? []).includes(m)) insert.run(id, m, 0, 0, now);
  return { id, stid };
}

/**
 * A community's three usual channels: an announcements feed, an open channel and a read-only one, each with
 * `members`, the owner their admin and the only one who may post.
 */
export function insertCommunityChannels(
  db: Db,
  f: { communityId: number; ownerId: number; members: number[] },
): Record<'announcements' | 'general' | 'readOnly', { id: number; stid: string }> {
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
  return {
    announcements: channel('Announcements', { announcements: true }),
    general: channel('General', {}),
    readOnly: channel('Rules', { readOnly: true }),
  };
}
