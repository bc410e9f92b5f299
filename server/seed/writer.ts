import type { Attachment } from '../../src/protocol/entities';
import type { Db } from '../db/database';
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

/**
 * Writes seed rows straight into SQLite with prepared statements: no routes, no websocket events
 * (nobody is connected while seeding), users.event_seq left at 0. The caller owns the transaction.
 */
export class SeedWriter {
  private readonly insertUser;
  private readonly insertConversation;
  private readonly insertMember;
  private readonly insertMessage;
  private readonly insertReaction;
  private readonly insertReceipt;
  private readonly insertComment;
  private readonly insertCommentReaction;
  private readonly insertCommunity;
  private readonly insertCommunityMember;

  constructor(readonly db: Db) {
    this.insertUser = db.prepare(
      'INSERT INTO users (stid, phone_nr, country_code, nickname, created_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.insertConversation = db.prepare(
      `INSERT INTO conversations (stid, name, description, is_group, group_type, reply_to, show_numbers_to_all,
         user_notifications_to_all, owner_id, community_id, is_community_announcements, is_demo, read_only, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertMember = db.prepare(
      `INSERT INTO conversation_members (conversation_id, user_id, is_admin, is_owner, can_create_posts, joined_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.insertMessage = db.prepare(
      `INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, quoted_id, audience, pinned,
         created_at, edited_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertReaction = db.prepare('INSERT INTO reactions (message_id, user_id, reaction, set_at) VALUES (?, ?, ?, ?)');
    this.insertReceipt = db.prepare(
      'INSERT OR IGNORE INTO receipts (message_id, user_id, type, at) VALUES (?, ?, ?, ?)',
    );
    this.insertComment = db.prepare(
      `INSERT INTO comments (channel_id, post_id, parent_comment_id, user_id, message, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.insertCommentReaction = db.prepare(
      'INSERT INTO comment_reactions (comment_id, user_id, reaction, set_at) VALUES (?, ?, ?, ?)',
    );
    this.insertCommunity = db.prepare(
      `INSERT INTO communities (stid, name, description, is_private, country_code, owner_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertCommunityMember = db.prepare(
      'INSERT INTO community_members (community_id, user_id, is_admin, is_owner, joined_at) VALUES (?, ?, ?, ?, ?)',
    );
  }

  user(phone: string, countryCode: string, nickname: string, createdAt: number): number {
    return Number(this.insertUser.run(newStid('u'), phone, countryCode, nickname, createdAt).lastInsertRowid);
  }

  conversation(spec: ConversationSpec, members: MemberSpec[]): number {
    const flag = (b: boolean | undefined) => (b ? 1 : 0);
    const id = Number(
      this.insertConversation.run(
        newStid('c'),
        spec.name ?? '',
        spec.description ?? '',
        flag(spec.isGroup),
        spec.groupType ?? 'normal',
        flag(spec.broadcast),
        flag(spec.broadcast),
        flag(spec.broadcast),
        spec.ownerId,
        spec.communityId ?? null,
        flag(spec.announcements),
        flag(spec.demo),
        flag(spec.readOnly),
        spec.createdAt,
      ).lastInsertRowid,
    );
    for (const m of members) this.member(id, m);
    return id;
  }

  member(conversationId: number, m: MemberSpec): void {
    this.insertMember.run(
      conversationId,
      m.userId,
      m.admin || m.owner ? 1 : 0,
      m.owner ? 1 : 0,
      m.canCreatePosts ? 1 : 0,
      m.joinedAt,
    );
  }

  message(spec: MessageSpec): number {
    const editedAt = spec.editedAt ?? 0;
    return Number(
      this.insertMessage.run(
        newStid('msg'),
        spec.conversationId,
        spec.userId,
        spec.type ?? 'text',
        spec.text,
        spec.attachment ? JSON.stringify(spec.attachment) : null,
        spec.quotedId ?? null,
        spec.audience ?? null,
        spec.pinned ? 1 : 0,
        spec.at,
        editedAt,
        Math.max(spec.at, editedAt),
      ).lastInsertRowid,
    );
  }

  /** The "Anna added Budi" kind of system message (spec §3 event attachments). */
  userAddedEvent(conversationId: number, actorId: number, added: { id: number; nickname: string }, at: number): number {
    return this.message({
      conversationId,
      userId: actorId,
      type: 'system',
      text: '',
      attachment: { type: 'event', event_type: 'user_added', event: { user_id: added.id, name: added.nickname } },
      at,
    });
  }

  reaction(messageId: number, userId: number, reaction: string, at: number): void {
    this.insertReaction.run(messageId, userId, reaction, at);
  }

  receipt(messageId: number, userId: number, type: 'delivered' | 'read', at: number): void {
    this.insertReceipt.run(messageId, userId, type, at);
  }

  comment(channelId: number, postId: number, userId: number, text: string, at: number, parentId: number | null = null) {
    return Number(this.insertComment.run(channelId, postId, parentId, userId, text, at).lastInsertRowid);
  }

  commentReaction(commentId: number, userId: number, reaction: string, at: number): void {
    this.insertCommentReaction.run(commentId, userId, reaction, at);
  }

  community(
    spec: { name: string; description: string; countryCode: string; ownerId: number; createdAt: number },
    members: { userId: number; admin?: boolean }[],
  ): number {
    const id = Number(
      this.insertCommunity.run(
        newStid('m'),
        spec.name,
        spec.description,
        0,
        spec.countryCode,
        spec.ownerId,
        spec.createdAt,
      ).lastInsertRowid,
    );
    this.insertCommunityMember.run(id, spec.ownerId, 1, 1, spec.createdAt);
    for (const m of members) {
      if (m.userId !== spec.ownerId) this.insertCommunityMember.run(id, m.userId, m.admin ? 1 : 0, 0, spec.createdAt);
    }
    return id;
  }

  /**
   * Makes a conversation's derived columns agree with its messages: last_message_id/at (replies seen only by
   * broadcasters do not count, as when sent), each member's last read message (everything unless `unread`
   * names how many of the latest messages that member has not read), post comment counts, and, outside
   * channels, delivered/read receipts that match those last reads.
   */
  settle(conversationId: number, unread: Map<number, number> = new Map()): void {
    const db = this.db;
    const last = db
      .prepare<[number], { id: number; created_at: number }>(
        'SELECT id, created_at FROM messages WHERE conversation_id = ? AND audience IS NULL ORDER BY id DESC LIMIT 1',
      )
      .get(conversationId);
    db.prepare('UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE id = ?').run(
      last?.id ?? null,
      last?.created_at ?? 0,
      conversationId,
    );
    db.prepare(
      `UPDATE messages SET
         comments_count = (SELECT COUNT(*) FROM comments c WHERE c.post_id = messages.id),
         updated_at = MAX(updated_at, COALESCE((SELECT MAX(c.created_at) FROM comments c WHERE c.post_id = messages.id), 0))
       WHERE conversation_id = ?`,
    ).run(conversationId);

    const conversation = db
      .prepare<[number], { group_type: string }>('SELECT group_type FROM conversations WHERE id = ?')
      .get(conversationId);
    const members = db
      .prepare<[number], { user_id: number; is_admin: number }>(
        'SELECT user_id, is_admin FROM conversation_members WHERE conversation_id = ?',
      )
      .all(conversationId);
    const messages = db
      .prepare<[number], { id: number; user_id: number; type: string; audience: string | null; created_at: number }>(
        'SELECT id, user_id, type, audience, created_at FROM messages WHERE conversation_id = ? ORDER BY id',
      )
      .all(conversationId);
    const setRead = db.prepare(
      'UPDATE conversation_members SET last_read_message_id = ? WHERE conversation_id = ? AND user_id = ?',
    );
    for (const member of members) {
      const visible = messages.filter(
        (m) => m.audience === null || m.user_id === member.user_id || member.is_admin === 1,
      );
      const skip = unread.get(member.user_id) ?? 0;
      // Sending marks your own message read, so a last read never falls behind your own latest message.
      const ownLatest = visible.filter((m) => m.user_id === member.user_id).pop()?.id ?? 0;
      const readUpTo = Math.max(visible[visible.length - 1 - skip]?.id ?? 0, ownLatest);
      setRead.run(readUpTo, conversationId, member.user_id);
      if (conversation?.group_type !== 'normal') continue;
      for (const m of visible) {
        if (m.user_id === member.user_id || m.type === 'system') continue;
        // Delivered within seconds; read a little later, when the reader got to it.
        this.receipt(m.id, member.user_id, 'delivered', m.created_at + 2_000);
        if (m.id <= readUpTo) this.receipt(m.id, member.user_id, 'read', m.created_at + 45_000);
      }
    }
  }
}
