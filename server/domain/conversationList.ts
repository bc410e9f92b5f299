import type { Conversation, ConversationUser, Reaction } from '../../src/protocol/entities';
import { type Store, sql } from '../db/store';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import {
  buildConversation,
  type ConversationSnapshot,
  imageMetaOf,
  MEMBER_LIST_LIMIT,
  messageReactions,
  serializeMessageRows,
} from './serialize';
import { countsAsUnreadSql } from './visibility';

/** Message ids per reactions query: well under SQLite's limit of bound parameters. */
const REACTION_CHUNK = 5_000;

type ListRow = ConversationRow & { owner_stid: string | null; image_name: string | null; community_name: string | null };

interface MemberListRow {
  conversation_id: number;
  id: number;
  stid: string;
  nickname: string;
  phone_nr: string;
  image_name: string | null;
  is_admin: number;
  member_count: number;
}

/** Appends to the list under `key`, making it on first use. */
function push<V>(map: Map<number, V[]>, key: number, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Every conversation of `viewerId` as the list answer gives it (GET /v2/conversations): the same entity
 * as `viewConversation` gives for each, newest activity first. Set-based: the conversations, the
 * viewer's memberships, the member lists, the admins and the unread counts take one query each for the
 * whole list, as do the latest messages (an indexed walk back per conversation inside it), the
 * reactions one per few thousand messages: a 5,000-chat list costs a few queries instead of ten per chat.
 */
export async function listConversations(db: Store, viewerId: number, messageCount: number): Promise<Conversation[]> {
  // One read snapshot: the queries below agree on which conversations, members and messages there are,
  // though other requests write in between (as one synchronous run of them did before).
  return db.transaction(() => listNow(db, viewerId, messageCount), { snapshot: true });
}

async function listNow(db: Store, viewerId: number, messageCount: number): Promise<Conversation[]> {
  const rows = await db.all<ListRow>(
    sql`SELECT c.*, o.stid AS owner_stid, f.name AS image_name, cy.name AS community_name FROM conversations c
        JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.user_id = ${viewerId}
        LEFT JOIN users o ON o.id = c.owner_id
        LEFT JOIN files f ON f.id = c.image_file_id
        LEFT JOIN communities cy ON cy.id = c.community_id
        ORDER BY CASE WHEN c.last_message_at > 0 THEN c.last_message_at ELSE c.created_at END DESC, c.id DESC`,
  );
  if (rows.length === 0) return [];

  const members = new Map<number, MemberRow>();
  for (const m of await db.all<MemberRow>(sql`SELECT * FROM conversation_members WHERE user_id = ${viewerId}`)) {
    members.set(m.conversation_id, m);
  }

  // The first MEMBER_LIST_LIMIT members of each conversation in conversationSnapshot's order, and the count.
  // (PostgreSQL 15 wants the derived table named.)
  const users = new Map<number, ConversationUser[]>();
  const memberCounts = new Map<number, number>();
  const memberRows = await db.all<MemberListRow>(
    sql`SELECT * FROM (
          SELECT cm.conversation_id, u.id, u.stid, u.nickname, u.phone_nr, f.name AS image_name, cm.is_admin,
            ROW_NUMBER() OVER (PARTITION BY cm.conversation_id ORDER BY cm.is_admin DESC, cm.joined_at, u.id) AS rn,
            COUNT(*) OVER (PARTITION BY cm.conversation_id) AS member_count
          FROM conversation_members mine
          JOIN conversation_members cm ON cm.conversation_id = mine.conversation_id
          JOIN users u ON u.id = cm.user_id
          LEFT JOIN files f ON f.id = u.image_file_id
          WHERE mine.user_id = ${viewerId}
        ) ranked WHERE rn <= ${MEMBER_LIST_LIMIT} ORDER BY conversation_id, rn`,
  );
  for (const u of memberRows) {
    memberCounts.set(u.conversation_id, u.member_count);
    push(users, u.conversation_id, {
      user: { id: u.id, user_id: u.id, stid: u.stid, nickname: u.nickname, phone_nr: u.phone_nr, image: { meta: imageMetaOf(u.image_name) } },
      is_admin: u.is_admin === 1,
    });
  }

  const admins = new Map<number, number[]>();
  const adminRows = await db.all<{ conversation_id: number; user_id: number }>(
    sql`SELECT cm.conversation_id, cm.user_id FROM conversation_members mine
        JOIN conversation_members cm ON cm.conversation_id = mine.conversation_id AND cm.is_admin = 1
        WHERE mine.user_id = ${viewerId} ORDER BY cm.conversation_id, cm.user_id`,
  );
  for (const a of adminRows) push(admins, a.conversation_id, a.user_id);

  // The viewer's unread messages (visible to them, from others, not system events, past their read
  // point), per conversation.
  const unread = new Map<number, number>();
  const unreadRows = await db.all<{ conversation_id: number; n: number }>(
    sql`SELECT m.conversation_id, COUNT(*) AS n FROM conversation_members mine
        JOIN messages m ON m.conversation_id = mine.conversation_id AND m.id > mine.last_read_message_id
        WHERE mine.user_id = ${viewerId} AND ${countsAsUnreadSql('m', viewerId)}
          AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = ${viewerId} AND h.message_id = m.id)
          AND (m.audience IS NULL OR m.user_id = ${viewerId} OR mine.is_admin = 1)
        GROUP BY m.conversation_id`,
  );
  for (const u of unreadRows) unread.set(u.conversation_id, u.n);

  // The latest visible messages of each conversation (at least the last one, for last_message): each
  // conversation's run is an indexed walk back from its newest message, as in `viewConversation`, to the
  // id where the run starts, then the visible messages from there. (PostgreSQL will not walk back inside
  // a join condition, as `m.id IN (... ORDER BY v.id DESC LIMIT n)` asked SQLite to: it tried that walk
  // for every message of the viewer's chats. MATERIALIZED keeps it from folding the walks back into the
  // join; both stores then range-scan each conversation's index from its start id.)
  const latest = new Map<number, MessageRow[]>();
  const messageIds: number[] = [];
  const latestRows = await db.all<MessageRow>(
    sql`WITH mine AS MATERIALIZED (
          SELECT cm.conversation_id, cm.user_id, cm.is_admin, COALESCE((
            SELECT v.id FROM messages v WHERE v.conversation_id = cm.conversation_id
              AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = cm.user_id AND h.message_id = v.id)
              AND (v.audience IS NULL OR v.user_id = cm.user_id OR cm.is_admin = 1)
            ORDER BY v.id DESC LIMIT 1 OFFSET ${Math.max(1, messageCount) - 1}), 0) AS from_id
          FROM conversation_members cm WHERE cm.user_id = ${viewerId})
        SELECT m.* FROM mine
        JOIN messages m ON m.conversation_id = mine.conversation_id AND m.id >= mine.from_id
        WHERE NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = mine.user_id AND h.message_id = m.id)
          AND (m.audience IS NULL OR m.user_id = mine.user_id OR mine.is_admin = 1)
        ORDER BY m.conversation_id, m.id`,
  );
  for (const m of latestRows) {
    push(latest, m.conversation_id, m);
    messageIds.push(m.id);
  }
  const reactions = new Map<number, Reaction[]>();
  for (let i = 0; i < messageIds.length; i += REACTION_CHUNK) {
    for (const [id, list] of await messageReactions(db, messageIds.slice(i, i + REACTION_CHUNK))) reactions.set(id, list);
  }

  return rows.map((listRow) => {
    const { owner_stid, image_name, community_name, ...row } = listRow;
    const snapshot: ConversationSnapshot = {
      row,
      users: users.get(row.id) ?? [],
      admins: admins.get(row.id) ?? [],
      memberCount: memberCounts.get(row.id) ?? 0,
      ownerStid: row.owner_id != null ? (owner_stid ?? '') : '',
      image: imageMetaOf(row.image_file_id == null ? null : image_name),
      communityName: community_name,
    };
    const found = latest.get(row.id) ?? [];
    const serialized = serializeMessageRows(row, found, reactions);
    const lastRow = found[found.length - 1] ?? null;
    return buildConversation(snapshot, viewerId, {
      member: members.get(row.id),
      messages: messageCount > 0 ? serialized : [],
      lastMessage: serialized[serialized.length - 1] ?? null,
      lastRow,
      unread: unread.get(row.id) ?? 0,
    });
  });
}
