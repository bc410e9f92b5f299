import type {
  Conversation,
  ConversationMute,
  ConversationUser,
  ImageMeta,
  Message,
  Reaction,
  User,
} from '../../src/protocol/entities';
import type { Db } from '../db/database';
import { adminIds, loadMember } from './access';
import { epochSeconds } from './ids';
import type { ConversationRow, MemberRow, MessageRow, UserRow } from './rows';
import { countsAsUnreadSql, visibleMessagesSql } from './visibility';

/** Public URL of a stored file, by its server-made name. */
export const fileUrl = (name: string) => `/files/${name}`;

/** The image meta of a stored file by its server-made name; no file means the default picture. */
export function imageMetaOf(name: string | null | undefined): ImageMeta {
  if (name == null) return { url: '', thumbnail: '', is_default: true };
  const url = fileUrl(name);
  return { url, thumbnail: url, is_default: false };
}

export function imageMeta(db: Db, fileId: number | null): ImageMeta {
  if (fileId == null) return imageMetaOf(null);
  return imageMetaOf(db.prepare<[number], { name: string }>('SELECT name FROM files WHERE id = ?').get(fileId)?.name);
}

export function serializeUser(db: Db, row: UserRow): User {
  const meta = imageMeta(db, row.image_file_id);
  return {
    id: row.id,
    stid: row.stid,
    nickname: row.nickname,
    email: row.email,
    phone_nr: row.phone_nr,
    service_nr: '',
    msisdn: row.phone_nr.replace(/^\+/, ''),
    channel: ['web'],
    carrier: '',
    country_code: row.country_code,
    image: { meta },
    avatar: meta.url,
    is_admin: false,
    deleted_at: row.deleted_at,
  };
}

export function loadUser(db: Db, id: number): UserRow | undefined {
  return db.prepare<[number], UserRow>('SELECT * FROM users WHERE id = ?').get(id);
}

function reactionsFor(db: Db, table: 'reactions' | 'comment_reactions', key: string, ids: number[]) {
  const byId = new Map<number, Reaction[]>();
  if (ids.length === 0) return byId;
  const rows = db
    .prepare<number[], { owner: number; reaction: string; user_id: number; set_at: number }>(
      `SELECT ${key} AS owner, reaction, user_id, set_at FROM ${table}
       WHERE ${key} IN (${ids.map(() => '?').join(',')}) ORDER BY set_at, user_id`,
    )
    .all(...ids);
  for (const r of rows) {
    const list = byId.get(r.owner) ?? [];
    let entry = list.find((e) => e.reaction === r.reaction);
    if (!entry) {
      entry = { reaction: r.reaction, users: [] };
      list.push(entry);
    }
    entry.users.push({ user_id: r.user_id, set_at: epochSeconds(r.set_at) });
    byId.set(r.owner, list);
  }
  return byId;
}

export function messageReactions(db: Db, ids: number[]): Map<number, Reaction[]> {
  return reactionsFor(db, 'reactions', 'message_id', ids);
}

export function commentReactions(db: Db, ids: number[]): Map<number, Reaction[]> {
  return reactionsFor(db, 'comment_reactions', 'comment_id', ids);
}

/** Serializes message rows of one conversation, reactions loaded in one query. */
export function serializeMessages(db: Db, conversation: ConversationRow, rows: MessageRow[]): Message[] {
  const reactions = messageReactions(
    db,
    rows.map((r) => r.id),
  );
  return serializeMessageRows(conversation, rows, reactions);
}

/** Serializes message rows of one conversation with their reactions already loaded (by message id). */
export function serializeMessageRows(
  conversation: ConversationRow,
  rows: MessageRow[],
  reactions: ReadonlyMap<number, Reaction[]>,
): Message[] {
  const isPostStream = conversation.group_type !== 'normal';
  return rows.map((r) => {
    const message: Message = {
      id: r.id,
      stid: r.stid,
      client_id: r.client_id,
      conversation_id: r.conversation_id,
      conversation_stid: conversation.stid,
      user_id: r.user_id,
      message: r.message,
      rich_message: null,
      type: r.type,
      created_at: epochSeconds(r.created_at),
      edited_at: r.edited_at > 0 ? Math.floor(r.edited_at / 1000) : 0,
      updated_at: Math.floor(r.updated_at / 1000),
      attachment: r.attachment ? (JSON.parse(r.attachment) as Message['attachment']) : null,
      reactions: reactions.get(r.id) ?? [],
      quoted: r.quoted_id,
      discussion: isPostStream ? { comments_count: r.comments_count } : null,
      pinned: r.pinned === 1,
    };
    if (r.audience === 'admins') message.audience = 'admins';
    return message;
  });
}

export function loadConversation(db: Db, id: number): ConversationRow | undefined {
  return db.prepare<[number], ConversationRow>('SELECT * FROM conversations WHERE id = ?').get(id);
}

/** At most this many members are listed in a conversation answer; member_count is always exact. */
export const MEMBER_LIST_LIMIT = 500;

/**
 * What a conversation looks like to everybody alike: its members (up to MEMBER_LIST_LIMIT, numbers
 * shown), admins, member count, owner and picture. Built with a fixed number of queries whatever the
 * group's size, once per answer or event, then viewed per receiver by `viewConversation`.
 */
export interface ConversationSnapshot {
  row: ConversationRow;
  users: ConversationUser[];
  admins: number[];
  memberCount: number;
  ownerStid: string;
  image: ImageMeta;
  /** The name of the community a channel belongs to; null for other conversations. */
  communityName: string | null;
  /** `users` with every phone number blanked, made on first need. */
  hiddenUsers?: ConversationUser[];
}

export function conversationSnapshot(db: Db, row: ConversationRow): ConversationSnapshot {
  const users: ConversationUser[] = db
    .prepare<
      [number, number],
      { id: number; stid: string; nickname: string; phone_nr: string; image_name: string | null; is_admin: number }
    >(
      `SELECT u.id, u.stid, u.nickname, u.phone_nr, f.name AS image_name, cm.is_admin
       FROM conversation_members cm JOIN users u ON u.id = cm.user_id LEFT JOIN files f ON f.id = u.image_file_id
       WHERE cm.conversation_id = ? ORDER BY cm.is_admin DESC, cm.joined_at, u.id LIMIT ?`,
    )
    .all(row.id, MEMBER_LIST_LIMIT)
    .map((u) => ({
      user: { id: u.id, user_id: u.id, stid: u.stid, nickname: u.nickname, phone_nr: u.phone_nr, image: { meta: imageMetaOf(u.image_name) } },
      is_admin: u.is_admin === 1,
    }));
  const memberCount =
    users.length < MEMBER_LIST_LIMIT
      ? users.length
      : (db
          .prepare<[number], { n: number }>('SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ?')
          .get(row.id)?.n ?? 0);
  const ownerStid =
    row.owner_id != null
      ? (db.prepare<[number], { stid: string }>('SELECT stid FROM users WHERE id = ?').get(row.owner_id)?.stid ?? '')
      : '';
  const communityName =
    row.community_id != null
      ? (db.prepare<[number], { name: string }>('SELECT name FROM communities WHERE id = ?').get(row.community_id)?.name ?? null)
      : null;
  return { row, users, admins: adminIds(db, row.id), memberCount, ownerStid, image: imageMeta(db, row.image_file_id), communityName };
}

/**
 * The member list as `viewerId` sees it. Numbers are private in channels, and in groups unless the
 * group shows them to all (broadcast groups do, spec §9); admins, who add people by number, always see
 * them, and everybody sees their own.
 */
function usersFor(snapshot: ConversationSnapshot, viewerId: number, viewerIsAdmin: boolean): ConversationUser[] {
  const { row, users } = snapshot;
  const hidePhones = (row.group_type !== 'normal' || (row.is_group === 1 && row.show_numbers_to_all !== 1)) && !viewerIsAdmin;
  if (!hidePhones) return users;
  snapshot.hiddenUsers ??= users.map((u) => ({ ...u, user: { ...u.user, phone_nr: '' } }));
  const own = users.findIndex((u) => u.user.id === viewerId);
  if (own < 0) return snapshot.hiddenUsers;
  const list = snapshot.hiddenUsers.slice();
  list[own] = users[own] as ConversationUser;
  return list;
}

/** A one-to-one chat is named after the other person, as each side sees it. */
function conversationName(snapshot: ConversationSnapshot, viewerId: number): string {
  const { row } = snapshot;
  if (row.is_group === 1 || row.name !== '') return row.name;
  const other = snapshot.users.find((u) => u.user.id !== viewerId)?.user;
  return other ? other.nickname || other.phone_nr : row.name;
}

/**
 * A one-to-one chat without a picture of its own shows the other person's, as it is named after them
 * (docs/server.md): a new or removed profile picture changes it, with the conversation_edit that says so.
 */
function conversationPicture(snapshot: ConversationSnapshot, viewerId: number): ImageMeta {
  const { row, image } = snapshot;
  if (row.is_group === 1 || !image.is_default) return image;
  return snapshot.users.find((u) => u.user.id !== viewerId)?.user.image.meta ?? image;
}

/**
 * A conversation as `viewerId` sees it: their role, unread count, and the latest `messageCount`
 * messages visible to them (oldest first). A fixed number of queries per viewer.
 */
export function viewConversation(
  db: Db,
  snapshot: ConversationSnapshot,
  viewerId: number,
  messageCount: number,
): Conversation {
  const { row } = snapshot;
  const member = loadMember(db, row.id, viewerId);
  const isAdmin = member?.is_admin === 1;
  const visibility = visibleMessagesSql('m');
  const args = [row.id, viewerId, viewerId, isAdmin ? 1 : 0];
  const latest =
    messageCount > 0
      ? db
          .prepare<number[], MessageRow>(`SELECT m.* FROM messages m WHERE ${visibility} ORDER BY m.id DESC LIMIT ?`)
          .all(...args, messageCount)
          .reverse()
      : [];
  const lastRow =
    latest[latest.length - 1] ??
    db
      .prepare<number[], MessageRow>(`SELECT m.* FROM messages m WHERE ${visibility} ORDER BY m.id DESC LIMIT 1`)
      .get(...args);
  const messages = serializeMessages(db, row, latest);
  const lastMessage = lastRow ? (messages[messages.length - 1] ?? serializeMessages(db, row, [lastRow])[0]) : null;
  const unread = member
    ? (db
        .prepare<number[], { n: number }>(
          `SELECT COUNT(*) AS n FROM messages m WHERE ${visibility} AND m.id > ? AND ${countsAsUnreadSql('m')}`,
        )
        .get(...args, member.last_read_message_id, viewerId)?.n ?? 0)
    : 0;
  return buildConversation(snapshot, viewerId, { member, messages, lastMessage: lastMessage ?? null, lastRow: lastRow ?? null, unread });
}

/** What a conversation answer holds for one viewer besides the snapshot. */
export interface ViewerPart {
  member: MemberRow | undefined;
  /** The latest messages visible to the viewer, oldest first (as many as asked for). */
  messages: Message[];
  lastMessage: Message | null;
  lastRow: MessageRow | null;
  unread: number;
}

/**
 * The conversation entity from a snapshot and the viewer's part, without queries: the single answer
 * (`viewConversation`) and the list (conversationList.ts, set-based) build it alike.
 */
export function buildConversation(snapshot: ConversationSnapshot, viewerId: number, part: ViewerPart): Conversation {
  const { row } = snapshot;
  const image = conversationPicture(snapshot, viewerId);
  const { member, messages, lastMessage, lastRow, unread } = part;
  const isAdmin = member?.is_admin === 1;
  const flag = (v: number) => (v === 1 ? '1' : '0') as '0' | '1';
  return {
    id: row.id,
    stid: row.stid,
    name: conversationName(snapshot, viewerId),
    description: row.description,
    image: { meta: image },
    avatar: { meta: image },
    logo: image.is_default ? null : { thumbnail: image.thumbnail, url: image.url },
    is_group: row.is_group === 1,
    group_type: row.group_type,
    settings: {
      reply_to: flag(row.reply_to),
      show_numbers_to_all: flag(row.show_numbers_to_all),
      user_notifications_to_all: flag(row.user_notifications_to_all),
      all_invite: flag(row.all_invite),
    },
    users: usersFor(snapshot, viewerId, isAdmin),
    member: {
      is_owner: member?.is_owner === 1,
      is_admin: isAdmin,
      permissions: { create_posts: member?.can_create_posts === 1 },
      mute: muteOf(member),
    },
    admins: snapshot.admins,
    member_count: snapshot.memberCount,
    messages,
    last_message: lastMessage,
    last_message_time: lastRow ? epochSeconds(lastRow.created_at) : '0',
    created_at: epochSeconds(row.created_at),
    unread_message_count: unread,
    is_unread: unread > 0,
    owner_stid: snapshot.ownerStid,
    community_id: row.community_id,
    community_name: snapshot.communityName,
    is_community_announcements: row.is_community_announcements === 1,
    is_demo: row.is_demo === 1,
    disable_comments: row.disable_comments === 1,
    read_only: row.read_only === 1,
  };
}

/** The viewer's mute as the entity shows it (the stored JSON of conversationPreferences.ts), or null. */
function muteOf(member: MemberRow | undefined): ConversationMute | null {
  if (!member?.mute) return null;
  try {
    const stored = JSON.parse(member.mute) as { type: ConversationMute['type']; time_zone: string; until: number | null };
    return { type: stored.type, time_zone: stored.time_zone, until: stored.until === null ? null : epochSeconds(stored.until) };
  } catch {
    return null;
  }
}

/** A conversation as `viewerId` sees it (see `viewConversation`), for a single receiver. */
export function serializeConversation(db: Db, row: ConversationRow, viewerId: number, messageCount: number): Conversation {
  return viewConversation(db, conversationSnapshot(db, row), viewerId, messageCount);
}

/** Conversation `id`, freshly loaded, as `viewerId` sees it: the answer of most conversation calls. */
export function conversationView(db: Db, id: number, viewerId: number, messageCount: number): Conversation {
  return serializeConversation(db, loadConversation(db, id) as ConversationRow, viewerId, messageCount);
}
