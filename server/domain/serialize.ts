import type {
  Conversation,
  ConversationMute,
  ConversationUser,
  ImageMeta,
  Message,
  Reaction,
  User,
} from '../../src/protocol/entities';
import { list, type Store, sql } from '../db/store';
import { thumbnailName } from '../files/thumbnail';
import { adminIds, loadMember } from './access';
import { epochSeconds } from './ids';
import type { ConversationRow, MemberRow, MessageRow, UserRow } from './rows';
import { countsAsUnreadSql, visibleMessagesSql } from './visibility';

/** Public URL of a stored file, by its server-made name. */
export const fileUrl = (name: string) => `/files/${name}`;

/**
 * Public URL of a stored file's thumbnail (docs/server.md "Uploads"): an image's is the WebP beside it,
 * derived from its name; anything else (a video) has none but itself.
 */
export function thumbnailUrl(name: string): string {
  return fileUrl(thumbnailName(name) ?? name);
}

/** The image meta of a stored file by its server-made name; no file means the default picture. */
export function imageMetaOf(name: string | null | undefined): ImageMeta {
  if (name == null) return { url: '', thumbnail: '', is_default: true };
  return { url: fileUrl(name), thumbnail: thumbnailUrl(name), is_default: false };
}

export async function imageMeta(db: Store, fileId: number | null): Promise<ImageMeta> {
  if (fileId == null) return imageMetaOf(null);
  return imageMetaOf((await db.get<{ name: string }>(sql`SELECT name FROM files WHERE id = ${fileId}`))?.name);
}

export async function serializeUser(db: Store, row: UserRow): Promise<User> {
  const meta = await imageMeta(db, row.image_file_id);
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

export async function loadUser(db: Store, id: number): Promise<UserRow | undefined> {
  return db.get<UserRow>(sql`SELECT * FROM users WHERE id = ${id}`);
}

async function reactionsFor(db: Store, table: 'reactions' | 'comment_reactions', key: string, ids: number[]) {
  const byId = new Map<number, Reaction[]>();
  if (ids.length === 0) return byId;
  const rows = await db.all<{ owner: number; reaction: string; user_id: number; set_at: number }>(
    sql`SELECT ${sql.ref(key)} AS owner, reaction, user_id, set_at FROM ${sql.table(table)}
        WHERE ${sql.ref(key)} IN ${list(ids)} ORDER BY set_at, user_id`,
  );
  for (const r of rows) {
    const entries = byId.get(r.owner) ?? [];
    let entry = entries.find((e) => e.reaction === r.reaction);
    if (!entry) {
      entry = { reaction: r.reaction, users: [] };
      entries.push(entry);
    }
    entry.users.push({ user_id: r.user_id, set_at: epochSeconds(r.set_at) });
    byId.set(r.owner, entries);
  }
  return byId;
}

export async function messageReactions(db: Store, ids: number[]): Promise<Map<number, Reaction[]>> {
  return reactionsFor(db, 'reactions', 'message_id', ids);
}

export async function commentReactions(db: Store, ids: number[]): Promise<Map<number, Reaction[]>> {
  return reactionsFor(db, 'comment_reactions', 'comment_id', ids);
}

/** Serializes message rows of one conversation, reactions loaded in one query. */
export async function serializeMessages(
  db: Store,
  conversation: ConversationRow,
  rows: MessageRow[],
): Promise<Message[]> {
  const reactions = await messageReactions(
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
    if (r.deleted_at > 0) message.deleted = true;
    return message;
  });
}

export async function loadConversation(db: Store, id: number): Promise<ConversationRow | undefined> {
  return db.get<ConversationRow>(sql`SELECT * FROM conversations WHERE id = ${id}`);
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

export async function conversationSnapshot(db: Store, row: ConversationRow): Promise<ConversationSnapshot> {
  const members = await db.all<{
    id: number;
    stid: string;
    nickname: string;
    phone_nr: string;
    image_name: string | null;
    is_admin: number;
  }>(
    sql`SELECT u.id, u.stid, u.nickname, u.phone_nr, f.name AS image_name, cm.is_admin
        FROM conversation_members cm JOIN users u ON u.id = cm.user_id LEFT JOIN files f ON f.id = u.image_file_id
        WHERE cm.conversation_id = ${row.id} ORDER BY cm.is_admin DESC, cm.joined_at, u.id LIMIT ${MEMBER_LIST_LIMIT}`,
  );
  const users: ConversationUser[] = members.map((u) => ({
    user: { id: u.id, user_id: u.id, stid: u.stid, nickname: u.nickname, phone_nr: u.phone_nr, image: { meta: imageMetaOf(u.image_name) } },
    is_admin: u.is_admin === 1,
  }));
  const memberCount =
    users.length < MEMBER_LIST_LIMIT
      ? users.length
      : ((
          await db.get<{ n: number }>(
            sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${row.id}`,
          )
        )?.n ?? 0);
  const ownerStid =
    row.owner_id != null
      ? ((await db.get<{ stid: string }>(sql`SELECT stid FROM users WHERE id = ${row.owner_id}`))?.stid ?? '')
      : '';
  const communityName =
    row.community_id != null
      ? ((await db.get<{ name: string }>(sql`SELECT name FROM communities WHERE id = ${row.community_id}`))?.name ??
        null)
      : null;
  const admins = await adminIds(db, row.id);
  const image = await imageMeta(db, row.image_file_id);
  return { row, users, admins, memberCount, ownerStid, image, communityName };
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

/**
 * A one-to-one chat is named after the other person, as each side sees it: their nickname, else the name
 * the viewer typed for them when creating the chat (they have no account yet), else their number.
 */
function conversationName(snapshot: ConversationSnapshot, viewerId: number, member: MemberRow | undefined): string {
  const { row } = snapshot;
  if (row.is_group === 1 || row.name !== '') return row.name;
  const other = snapshot.users.find((u) => u.user.id !== viewerId)?.user;
  return other ? other.nickname || member?.contact_name || other.phone_nr : row.name;
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
export async function viewConversation(
  db: Store,
  snapshot: ConversationSnapshot,
  viewerId: number,
  messageCount: number,
): Promise<Conversation> {
  const { row } = snapshot;
  const member = await loadMember(db, row.id, viewerId);
  const isAdmin = member?.is_admin === 1;
  const visibility = visibleMessagesSql('m', row.id, viewerId, isAdmin);
  const latest =
    messageCount > 0
      ? (
          await db.all<MessageRow>(
            sql`SELECT m.* FROM messages m WHERE ${visibility} ORDER BY m.id DESC LIMIT ${messageCount}`,
          )
        ).reverse()
      : [];
  const lastRow =
    latest[latest.length - 1] ??
    (await db.get<MessageRow>(sql`SELECT m.* FROM messages m WHERE ${visibility} ORDER BY m.id DESC LIMIT 1`));
  const messages = await serializeMessages(db, row, latest);
  const lastMessage = lastRow
    ? (messages[messages.length - 1] ?? (await serializeMessages(db, row, [lastRow]))[0])
    : null;
  const unread = member
    ? ((
        await db.get<{ n: number }>(
          sql`SELECT COUNT(*) AS n FROM messages m
              WHERE ${visibility} AND m.id > ${member.last_read_message_id} AND ${countsAsUnreadSql('m', viewerId)}`,
        )
      )?.n ?? 0)
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
    name: conversationName(snapshot, viewerId, member),
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
export async function serializeConversation(
  db: Store,
  row: ConversationRow,
  viewerId: number,
  messageCount: number,
): Promise<Conversation> {
  return viewConversation(db, await conversationSnapshot(db, row), viewerId, messageCount);
}

/** Conversation `id`, freshly loaded, as `viewerId` sees it: the answer of most conversation calls. */
export async function conversationView(
  db: Store,
  id: number,
  viewerId: number,
  messageCount: number,
): Promise<Conversation> {
  return serializeConversation(db, (await loadConversation(db, id)) as ConversationRow, viewerId, messageCount);
}
