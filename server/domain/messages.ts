import { createHash } from 'node:crypto';
import type { Attachment, Message } from '../../src/protocol/entities';
import { MESSAGE_TEXT_MAX } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import type { Db } from '../db/database';
import { badRequest, notFound } from '../http/errors';
import { adminIds, memberIds } from './access';
import { newStid } from './ids';
import { checkCanSend } from './permissions';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { fileUrl, serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

export interface SendInput {
  conversation: ConversationRow;
  member: MemberRow;
  clientId: number | null;
  text: string;
  /** Uploaded attachment: the file's server-made id from /v2/filestorage/file, and its type. */
  attachment: { type: 'image' | 'video'; fileId: string } | null;
  quotedId: number | null;
  /** The outbox's unique local id (Idempotency-Key header), when the client sends one. */
  idempotencyKey: string | null;
}

/** Who receives events about a message: everybody in the conversation, or for audience 'admins' the sender and admins. */
export function audienceOf(db: Db, row: { conversation_id: number; user_id: number; audience: string | null }): number[] {
  if (row.audience === 'admins') return [...adminIds(db, row.conversation_id), row.user_id];
  return memberIds(db, row.conversation_id);
}

export const MESSAGE_NOT_FOUND = 'Message not found';

/**
 * A message of the conversation that `member` may see, or a 404 with `notFoundText`. The one lookup for
 * messages and channel posts alike (a post is a message of its channel).
 */
export function requireVisibleMessage(
  db: Db,
  conversationId: number,
  member: MemberRow,
  messageId: number,
  notFoundText: string = MESSAGE_NOT_FOUND,
): MessageRow {
  const row = db
    .prepare<number[], MessageRow>(`SELECT m.* FROM messages m WHERE ${visibleMessagesSql('m')} AND m.id = ?`)
    .get(conversationId, member.user_id, member.user_id, member.is_admin, messageId);
  if (!row) throw notFound(notFoundText);
  return row;
}

function buildAttachment(db: Db, ownerId: number, input: NonNullable<SendInput['attachment']>): Attachment {
  const file = db
    .prepare<[string, number], { name: string; kind: string; size: number; mime: string; original_name: string }>(
      "SELECT name, kind, size, mime, original_name FROM files WHERE name = ? AND owner_id = ? AND purpose = 'attachment'",
    )
    .get(input.fileId, ownerId);
  if (!file) throw badRequest('Unknown attachment file');
  if (file.kind !== input.type) throw badRequest(`The attached file is not an ${input.type}`);
  const url = fileUrl(file.name);
  return {
    type: input.type,
    url,
    thumbnail: url,
    name: file.original_name,
    size: file.size,
    mime: file.mime,
    file_info: { url, size: file.size },
  };
}

/**
 * The idempotency rule (design.md §4, docs/server.md): a send is a retry of an earlier one when the same
 * sender, conversation and client_id come with the same Idempotency-Key, or, without one, the same
 * content. A retry returns the stored message (or comment) and emits nothing; two different messages
 * that drew the same client_id are both kept. This is the value stored next to client_id.
 */
export function retryFingerprint(idempotencyKey: string | null, content: unknown[]): string {
  if (idempotencyKey) return `k:${idempotencyKey}`;
  return `c:${createHash('sha256').update(JSON.stringify(content)).digest('hex')}`;
}

/** Stores a message (or finds the one a retry repeats) and tells its audience. */
export function sendMessage(ctx: ServerContext, input: SendInput): { message: Message; created: boolean } {
  const { db } = ctx;
  const { conversation, member } = input;
  const text = input.text.trim();
  if (text.length > MESSAGE_TEXT_MAX) throw badRequest(`A message can be at most ${MESSAGE_TEXT_MAX} characters`);
  if (text === '' && !input.attachment) throw badRequest('A message needs text or an attachment');
  const { audience } = checkCanSend(db, conversation, member, { quoted: input.quotedId != null });
  if (input.quotedId != null) requireVisibleMessage(db, conversation.id, member, input.quotedId);
  const print =
    input.clientId != null
      ? retryFingerprint(input.idempotencyKey, [input.text, input.attachment?.fileId ?? null, input.quotedId])
      : null;
  if (print) {
    const existing = db
      .prepare<[number, number, number, string], MessageRow>(
        'SELECT * FROM messages WHERE conversation_id = ? AND user_id = ? AND client_id = ? AND fingerprint = ?',
      )
      .get(conversation.id, member.user_id, input.clientId as number, print);
    if (existing) return { message: serializeMessages(db, conversation, [existing])[0] as Message, created: false };
  }
  const attachment = input.attachment ? buildAttachment(db, member.user_id, input.attachment) : null;
  const now = ctx.clock.now();
  return ctx.events.transaction(() => {
    const id = Number(
      db
        .prepare(
          `INSERT INTO messages (stid, conversation_id, user_id, client_id, fingerprint, type, message, attachment,
             quoted_id, audience, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'text', ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          newStid('msg'),
          conversation.id,
          member.user_id,
          input.clientId,
          print,
          text,
          attachment ? JSON.stringify(attachment) : null,
          input.quotedId,
          audience,
          now,
          now,
        ).lastInsertRowid,
    );
    if (audience === null) {
      db.prepare('UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE id = ?').run(id, now, conversation.id);
    }
    // Your own message is read by you.
    db.prepare('UPDATE conversation_members SET last_read_message_id = ? WHERE conversation_id = ? AND user_id = ?').run(
      id,
      conversation.id,
      member.user_id,
    );
    const row = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?').get(id) as MessageRow;
    const message = serializeMessages(db, conversation, [row])[0] as Message;
    ctx.events.emit(audienceOf(db, row), 'conversation_message', { conversation_id: conversation.id, message });
    return { message, created: true };
  });
}

/**
 * A system message reporting a change (spec §3 event attachments), e.g. a rename or a member added.
 * Call inside the transaction that makes the change.
 */
export function postSystemEvent(
  ctx: ServerContext,
  conversation: ConversationRow,
  actorId: number,
  attachment: Attachment,
): Message {
  const { db } = ctx;
  const now = ctx.clock.now();
  return ctx.events.transaction(() => {
    const id = Number(
      db
        .prepare(
          `INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, created_at, updated_at)
           VALUES (?, ?, ?, 'system', '', ?, ?, ?)`,
        )
        .run(newStid('msg'), conversation.id, actorId, JSON.stringify(attachment), now, now).lastInsertRowid,
    );
    db.prepare('UPDATE conversations SET last_message_id = ?, last_message_at = ? WHERE id = ?').run(id, now, conversation.id);
    const row = db.prepare<[number], MessageRow>('SELECT * FROM messages WHERE id = ?').get(id) as MessageRow;
    const message = serializeMessages(db, conversation, [row])[0] as Message;
    ctx.events.emit(memberIds(db, conversation.id), 'conversation_message', { conversation_id: conversation.id, message });
    return message;
  });
}
