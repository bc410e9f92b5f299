import type { Conversation, ConversationUser, Reaction } from '../../src/protocol/entities';
import type { Db } from '../db/database';
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
export function listConversations(db: Db, viewerId: number, messageCount: number): Conversation[] {
  const rows = db
    .prepare<[number], ListRow>(
      `SELECT c.*, o.stid AS owner_stid, f.name AS image_name, cy.name AS community_name FROM conversations c
       JOIN conversation_members cm ON cm.conversation_id = c.id AND cm.user_id = ?
       LEFT JOIN users o ON o.id = c.owner_id
       LEFT JOIN files f ON f.id = c.image_file_id
       LEFT JOIN communities cy ON cy.id = c.community_id
       ORDER BY CASE WHEN c.last_message_at > 0 THEN c.last_message_at ELSE c.created_at END DESC, c.id DESC`,
    )
    .all(viewerId);
  if (rows.length === 0) return [];

  const members = new Map<number, MemberRow>();
  for (const m of db.prepare<[number], MemberRow>('SELECT * FROM conversation_members WHERE user_id = ?').all(viewerId)) {
    members.set(m.conversation_id, m);
  }

  // The first MEMBER_LIST_LIMIT members of each conversation in conversationSnapshot's order, and the count.
  const users = new Map<number, ConversationUser[]>();
  const memberCounts = new Map<number, number>();
  const memberRows = db
    .prepare<[number, number], MemberListRow>(
      `SELECT * FROM (
         SELECT cm.conversation_id, u.id, u.stid, u.nickname, u.phone_nr, f.name AS image_name, cm.is_admin,
           ROW_NUMBER() OVER (PARTITION BY cm.conversation_id ORDER BY cm.is_admin DESC, cm.joined_at, u.id) AS rn,
           COUNT(*) OVER (PARTITION BY cm.conversation_id) AS member_count
         FROM conversation_members mine
         JOIN conversation_members cm ON cm.conversation_id = mine.conversation_id
         JOIN users u ON u.id = cm.user_id
         LEFT JOIN files f ON f.id = u.image_file_id
         WHERE mine.user_id = ?
       ) WHERE rn <= ? ORDER BY conversation_id, rn`,
    )
    .all(viewerId, MEMBER_LIST_LIMIT);
  for (const u of memberRows) {
    memberCounts.set(u.conversation_id, u.member_count);
    push(users, u.conversation_id, {
      user: { id: u.id, user_id: u.id, stid: u.stid, nickname: u.nickname, phone_nr: u.phone_nr, image: { meta: imageMetaOf(u.image_name) } },
      is_admin: u.is_admin === 1,
    });
  }

  const admins = new Map<number, number[]>();
  const adminRows = db
    .prepare<[number], { conversation_id: number; user_id: number }>(
      `SELECT cm.conversation_id, cm.user_id FROM conversation_members mine
       JOIN conversation_members cm ON cm.conversation_id = mine.conversation_id AND cm.is_admin = 1
       WHERE mine.user_id = ? ORDER BY cm.conversation_id, cm.user_id`,
    )
    .all(viewerId);
  for (const a of adminRows) push(admins, a.conversation_id, a.user_id);

  // The viewer's unread messages (visible to them, from others, not system events, past their read
  // point), per conversation.
  const unread = new Map<number, number>();
  const unreadRows = db
    .prepare<[number, number, number, number], { conversation_id: number; n: number }>(
      `SELECT m.conversation_id, COUNT(*) AS n FROM conversation_members mine
       JOIN messages m ON m.conversation_id = mine.conversation_id AND m.id > mine.last_read_message_id
       WHERE mine.user_id = ? AND ${countsAsUnreadSql('m')}
         AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = ? AND h.message_id = m.id)
         AND (m.audience IS NULL OR m.user_id = ? OR mine.is_admin = 1)
       GROUP BY m.conversation_id`,
    )
    .all(viewerId, viewerId, viewerId, viewerId);
  for (const u of unreadRows) unread.set(u.conversation_id, u.n);

  // The latest visible messages of each conversation (at least the last one, for last_message): each
  // conversation's run is an indexed walk back from its newest message, as in `viewConversation`.
  const latest = new Map<number, MessageRow[]>();
  const messageIds: number[] = [];
  const latestRows = db
    .prepare<[number, number], MessageRow>(
      `SELECT m.* FROM conversation_members mine
       JOIN messages m ON m.id IN (
         SELECT v.id FROM messages v WHERE v.conversation_id = mine.conversation_id
           AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = mine.user_id AND h.message_id = v.id)
           AND (v.audience IS NULL OR v.user_id = mine.user_id OR mine.is_admin = 1)
         ORDER BY v.id DESC LIMIT ?)
       WHERE mine.user_id = ? ORDER BY m.conversation_id, m.id`,
    )
    .all(Math.max(1, messageCount), viewerId);
  for (const m of latestRows) {
    push(latest, m.conversation_id, m);
    messageIds.push(m.id);
  }
  const reactions = new Map<number, Reaction[]>();
  for (let i = 0; i < messageIds.length; i += REACTION_CHUNK) {
    for (const [id, list] of messageReactions(db, messageIds.slice(i, i + REACTION_CHUNK))) reactions.set(id, list);
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
