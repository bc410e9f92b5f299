import type { Attachment } from '../../src/protocol/entities';
import { type Query, type Store, sql } from '../db/store';
import { newStid } from '../domain/ids';

export interface ConversationSpec {
  name?: string;
  description?: string;
  isGroup: boolean;
  groupType?: 'normal' | 'channel' | 'feed';
  /** Broadcast group: reply_to, show_numbers_to_all and user_notifications_to_all all set. */
  broadcast?: boolean;
  ownerId: number | null;
  communityId?: number | null;
  announcements?: boolean;
  demo?: boolean;
  readOnly?: boolean;
  createdAt: number;
}

export interface MemberSpec {
  userId: number;
  admin?: boolean;
  owner?: boolean;
  canCreatePosts?: boolean;
  joinedAt: number;
}

export interface MessageSpec {
  conversationId: number;
  userId: number;
  text: string;
  at: number;
  type?: 'text' | 'system';
  attachment?: Attachment | null;
  quotedId?: number | null;
  /** 'admins' for a broadcast-group reply that only the sender and the broadcasters see. */
  audience?: 'admins' | null;
  editedAt?: number;
  pinned?: boolean;
}

/** A value of a seed row: numbers for INTEGER/BIGINT columns (flags 0/1), strings for TEXT, or NULL. */
export type SeedValue = number | string | null;

/** `(a, b), (c, d)`: the rows of a multi-row `INSERT ... VALUES`, each value a parameter. */
export function valueRows(rows: readonly (readonly SeedValue[])[]): Query<unknown> {
  if (rows.length === 0) throw new Error('an INSERT needs at least one row');
  return sql.join(rows.map((row) => sql`(${sql.join(row)})`));
}

/**
 * `rows` cut into statements of `per` rows, the rest in powers of two: the SQLite store keeps every
 * statement text it ran compiled, so the texts of many-row inserts must be few.
 */
function pieces<T>(rows: readonly T[], per: number): T[][] {
  const out: T[][] = [];
  let i = 0;
  for (; rows.length - i >= per; i += per) out.push(rows.slice(i, i + per));
  for (let size = 2 ** Math.floor(Math.log2(per)); size >= 1; size /= 2) {
    if (rows.length - i >= size) {
      out.push(rows.slice(i, i + size));
      i += size;
    }
  }
  return out;
}

/**
 * Inserts many rows with few statements, `per` rows each: one statement for many rows saves a round trip
 * per row on PostgreSQL and most of the per-statement cost on SQLite (seeding writes hundreds of thousands).
 * `into` is `table (columns)`, `tail` what follows the rows (ON CONFLICT). Keep `per` times the columns well
 * below the parameter limits (32,766 on SQLite, 65,535 on PostgreSQL).
 */
export async function insertRows(
  db: Store,
  into: Query<unknown>,
  rows: readonly (readonly SeedValue[])[],
  per = 32,
  tail: Query<unknown> = sql``,
): Promise<void> {
  for (const piece of pieces(rows, per)) await db.run(sql`INSERT INTO ${into} VALUES ${valueRows(piece)} ${tail}`);
}

/**
 * Writes seed rows straight into the store: no routes, no websocket events (nobody is connected while
 * seeding), every event counter left at 0. The caller owns the transaction (statements run one after another
 * inside it).
 */
export class SeedWriter {
  constructor(readonly db: Store) {}

  async user(phone: string, countryCode: string, nickname: string, createdAt: number): Promise<number> {
    const row = await this.db.get<{ id: number }>(
      sql`INSERT INTO users (stid, phone_nr, country_code, nickname, created_at)
          VALUES (${newStid('u')}, ${phone}, ${countryCode}, ${nickname}, ${createdAt}) RETURNING id`,
    );
    return row!.id;
  }

  async conversation(spec: ConversationSpec, members: MemberSpec[]): Promise<number> {
    const flag = (b: boolean | undefined) => (b ? 1 : 0);
    const row = await this.db.get<{ id: number }>(
      sql`INSERT INTO conversations (stid, name, description, is_group, group_type, reply_to,
            show_numbers_to_all, user_notifications_to_all, owner_id, community_id, is_community_announcements,
            is_demo, read_only, created_at)
          VALUES (${newStid('c')}, ${spec.name ?? ''}, ${spec.description ?? ''}, ${flag(spec.isGroup)},
            ${spec.groupType ?? 'normal'}, ${flag(spec.broadcast)}, ${flag(spec.broadcast)}, ${flag(spec.broadcast)},
            ${spec.ownerId}, ${spec.communityId ?? null}, ${flag(spec.announcements)}, ${flag(spec.demo)},
            ${flag(spec.readOnly)}, ${spec.createdAt})
          RETURNING id`,
    );
    const id = row!.id;
    for (const m of members) await this.member(id, m);
    return id;
  }

  async member(conversationId: number, m: MemberSpec): Promise<void> {
    await this.db.run(
      sql`INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, can_create_posts, joined_at)
          VALUES (${conversationId}, ${m.userId}, ${m.admin || m.owner ? 1 : 0}, ${m.owner ? 1 : 0},
            ${m.canCreatePosts ? 1 : 0}, ${m.joinedAt})`,
    );
  }

  async message(spec: MessageSpec): Promise<number> {
    const editedAt = spec.editedAt ?? 0;
    const row = await this.db.get<{ id: number }>(
      sql`INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, quoted_id, audience, pinned,
            created_at, edited_at, updated_at)
          VALUES (${newStid('msg')}, ${spec.conversationId}, ${spec.userId}, ${spec.type ?? 'text'}, ${spec.text},
            ${spec.attachment ? JSON.stringify(spec.attachment) : null}, ${spec.quotedId ?? null},
            ${spec.audience ?? null}, ${spec.pinned ? 1 : 0}, ${spec.at}, ${editedAt}, ${Math.max(spec.at, editedAt)})
          RETURNING id`,
    );
    return row!.id;
  }

  /** The "Anna added Budi" kind of system message (spec §3 event attachments). */
  userAddedEvent(
    conversationId: number,
    actorId: number,
    added: { id: number; nickname: string },
    at: number,
  ): Promise<number> {
    return this.message({
      conversationId,
      userId: actorId,
      type: 'system',
      text: '',
      attachment: { type: 'event', event_type: 'user_added', event: { user_id: added.id, name: added.nickname } },
      at,
    });
  }

  async reaction(messageId: number, userId: number, reaction: string, at: number): Promise<void> {
    await this.db.run(
      sql`INSERT INTO reactions (message_id, user_id, reaction, set_at)
          VALUES (${messageId}, ${userId}, ${reaction}, ${at})`,
    );
  }

  async receipt(messageId: number, userId: number, type: 'delivered' | 'read', at: number): Promise<void> {
    await this.receipts([[messageId, userId, type, at]]);
  }

  /** Receipts (message, user, type, at), a receipt already there left as it is. */
  private async receipts(rows: readonly (readonly [number, number, 'delivered' | 'read', number])[]): Promise<void> {
    await insertRows(this.db, sql`receipts (message_id, user_id, type, at)`, rows, 32, sql`ON CONFLICT DO NOTHING`);
  }

  async comment(
    channelId: number,
    postId: number,
    userId: number,
    text: string,
    at: number,
    parentId: number | null = null,
  ): Promise<number> {
    const row = await this.db.get<{ id: number }>(
      sql`INSERT INTO comments (channel_id, post_id, parent_comment_id, user_id, message, created_at)
          VALUES (${channelId}, ${postId}, ${parentId}, ${userId}, ${text}, ${at}) RETURNING id`,
    );
    return row!.id;
  }

  async commentReaction(commentId: number, userId: number, reaction: string, at: number): Promise<void> {
    await this.db.run(
      sql`INSERT INTO comment_reactions (comment_id, user_id, reaction, set_at)
          VALUES (${commentId}, ${userId}, ${reaction}, ${at})`,
    );
  }

  async community(
    spec: { name: string; description: string; countryCode: string; ownerId: number; createdAt: number },
    members: { userId: number; admin?: boolean }[],
  ): Promise<number> {
    const row = await this.db.get<{ id: number }>(
      sql`INSERT INTO communities (stid, name, description, is_private, country_code, owner_id, created_at)
          VALUES (${newStid('m')}, ${spec.name}, ${spec.description}, 0, ${spec.countryCode}, ${spec.ownerId},
            ${spec.createdAt})
          RETURNING id`,
    );
    const id = row!.id;
    const rows: SeedValue[][] = [[id, spec.ownerId, 1, 1, spec.createdAt]];
    for (const m of members) {
      if (m.userId !== spec.ownerId) rows.push([id, m.userId, m.admin ? 1 : 0, 0, spec.createdAt]);
    }
    await insertRows(this.db, sql`community_members (community_id, user_id, is_admin, is_owner, joined_at)`, rows);
    return id;
  }

  /**
   * Makes a conversation's derived columns agree with its messages: last_message_id/at (replies seen only by
   * broadcasters do not count, as when sent), each member's last read message (everything unless `unread`
   * names how many of the latest messages that member has not read), post comment counts, and, outside
   * channels, delivered/read receipts that match those last reads.
   */
  async settle(conversationId: number, unread: Map<number, number> = new Map()): Promise<void> {
    const db = this.db;
    const last = await db.get<{ id: number; created_at: number }>(
      sql`SELECT id, created_at FROM messages WHERE conversation_id = ${conversationId} AND audience IS NULL
          ORDER BY id DESC LIMIT 1`,
    );
    await db.run(
      sql`UPDATE conversations SET last_message_id = ${last?.id ?? null}, last_message_at = ${last?.created_at ?? 0}
          WHERE id = ${conversationId}`,
    );
    // updated_at moves up to the post's latest comment, if that is later (no scalar MAX() on PostgreSQL).
    await db.run(
      sql`UPDATE messages SET
            comments_count = (SELECT COUNT(*) FROM comments c WHERE c.post_id = messages.id),
            updated_at = COALESCE(
              (SELECT MAX(c.created_at) FROM comments c
               WHERE c.post_id = messages.id AND c.created_at > messages.updated_at),
              updated_at)
          WHERE conversation_id = ${conversationId}`,
    );

    const conversation = await db.get<{ group_type: string }>(
      sql`SELECT group_type FROM conversations WHERE id = ${conversationId}`,
    );
    const members = await db.all<{ user_id: number; is_admin: number }>(
      sql`SELECT user_id, is_admin FROM conversation_members WHERE conversation_id = ${conversationId}
          ORDER BY user_id`,
    );
    const messages = await db.all<{
      id: number;
      user_id: number;
      type: string;
      audience: string | null;
      created_at: number;
    }>(
      sql`SELECT id, user_id, type, audience, created_at FROM messages WHERE conversation_id = ${conversationId}
          ORDER BY id`,
    );
    const receipts: [number, number, 'delivered' | 'read', number][] = [];
    for (const member of members) {
      const visible = messages.filter(
        (m) => m.audience === null || m.user_id === member.user_id || member.is_admin === 1,
      );
      const skip = unread.get(member.user_id) ?? 0;
      // Sending marks your own message read, so a last read never falls behind your own latest message.
      const ownLatest = visible.filter((m) => m.user_id === member.user_id).pop()?.id ?? 0;
      const readUpTo = Math.max(visible[visible.length - 1 - skip]?.id ?? 0, ownLatest);
      await db.run(
        sql`UPDATE conversation_members SET last_read_message_id = ${readUpTo}
            WHERE conversation_id = ${conversationId} AND user_id = ${member.user_id}`,
      );
      if (conversation?.group_type !== 'normal') continue;
      for (const m of visible) {
        if (m.user_id === member.user_id || m.type === 'system') continue;
        // Delivered within seconds; read a little later, when the reader got to it.
        receipts.push([m.id, member.user_id, 'delivered', m.created_at + 2_000]);
        if (m.id <= readUpTo) receipts.push([m.id, member.user_id, 'read', m.created_at + 45_000]);
      }
    }
    if (receipts.length > 0) await this.receipts(receipts);
  }
}
