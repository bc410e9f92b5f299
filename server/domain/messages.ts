import { createHash } from 'node:crypto';
import type { Attachment, Message } from '../../src/protocol/entities';
import { MESSAGE_TEXT_MAX } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { type Store, sql } from '../db/store';
import { badRequest, notFound } from '../http/errors';
import { adminIds, memberIds } from './access';
import { newStid } from './ids';
import { checkCanSend } from './permissions';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { fileUrl, serializeMessageRows, serializeMessages, thumbnailUrl } from './serialize';
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
export async function audienceOf(
  db: Store,
  row: { conversation_id: number; user_id: number; audience: string | null },
): Promise<number[]> {
  if (row.audience === 'admins') return [...(await adminIds(db, row.conversation_id)), row.user_id];
  return memberIds(db, row.conversation_id);
}

export const MESSAGE_NOT_FOUND = 'Message not found';

const NO_REACTIONS: ReadonlyMap<number, never[]> = new Map();

/**
 * A message of the conversation that `member` may see, or a 404 with `notFoundText`. The one lookup for
 * messages and channel posts alike (a post is a message of its channel). A message deleted for everybody
 * is not found (nothing can be edited, reacted to, quoted or commented on in its tombstone), unless
 * `tombstones` is 'allow' (a receipt may name it: reading a chat reads past it).
 */
export async function requireVisibleMessage(
  db: Store,
  conversationId: number,
  member: MemberRow,
  messageId: number,
  notFoundText: string = MESSAGE_NOT_FOUND,
  tombstones: 'refuse' | 'allow' = 'refuse',
): Promise<MessageRow> {
  const visible = visibleMessagesSql('m', conversationId, member.user_id, member.is_admin === 1);
  const row = await db.get<MessageRow>(sql`SELECT m.* FROM messages m WHERE ${visible} AND m.id = ${messageId}`);
  if (!row || (row.deleted_at > 0 && tombstones === 'refuse')) throw notFound(notFoundText);
  return row;
}

async function buildAttachment(
  db: Store,
  ownerId: number,
  input: NonNullable<SendInput['attachment']>,
): Promise<Attachment> {
  const file = await db.get<{ name: string; kind: string; size: number; mime: string; original_name: string }>(
    sql`SELECT name, kind, size, mime, original_name FROM files
        WHERE name = ${input.fileId} AND owner_id = ${ownerId} AND purpose = 'attachment'`,
  );
  if (!file) throw badRequest('Unknown attachment file');
  if (file.kind !== input.type) throw badRequest(`The attached file is not an ${input.type}`);
  const url = fileUrl(file.name);
  return {
    type: input.type,
    url,
    thumbnail: thumbnailUrl(file.name),
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
export async function sendMessage(
  ctx: ServerContext,
  input: SendInput,
): Promise<{ message: Message; created: boolean }> {
  const { db } = ctx;
  const { conversation, member } = input;
  const text = input.text.trim();
  if (text.length > MESSAGE_TEXT_MAX) {
    throw badRequest(`A message can be at most ${MESSAGE_TEXT_MAX} characters`, 'message_too_long');
  }
  if (text === '' && !input.attachment) throw badRequest('A message needs text or an attachment', 'message_empty');
  const { audience } = await checkCanSend(db, conversation, member, { quoted: input.quotedId != null });
  if (input.quotedId != null) await requireVisibleMessage(db, conversation.id, member, input.quotedId);
  const print =
    input.clientId != null
      ? retryFingerprint(input.idempotencyKey, [input.text, input.attachment?.fileId ?? null, input.quotedId])
      : null;
  const stored = async (): Promise<MessageRow | undefined> =>
    print === null
      ? undefined
      : db.get<MessageRow>(
          sql`SELECT * FROM messages WHERE conversation_id = ${conversation.id} AND user_id = ${member.user_id}
              AND client_id = ${input.clientId} AND fingerprint = ${print}`,
        );
  const now = ctx.clock.now();
  const send = () => ctx.events.transaction(async () => {
    await lockConversation(db, conversation.id);
    const attachment = input.attachment ? await buildAttachment(db, member.user_id, input.attachment) : null;
    // A retry (the same client id and content) is found by the insert itself: the idempotency index turns it
    // into no row, and the stored message answers it. The row comes back whole (no read after the insert), and
    // a new message has no reactions to look up: every statement inside the conversation's lock is a round
    // trip that the chat's next send waits for (issue 21).
    const row = await db.get<MessageRow>(
      sql`INSERT INTO messages (stid, conversation_id, user_id, client_id, fingerprint, type, message, attachment,
            quoted_id, audience, created_at, updated_at)
          VALUES (${newStid('msg')}, ${conversation.id}, ${member.user_id}, ${input.clientId}, ${print}, 'text',
            ${text}, ${attachment ? JSON.stringify(attachment) : null}, ${input.quotedId}, ${audience}, ${now}, ${now})
          ON CONFLICT DO NOTHING RETURNING *`,
    );
    if (!row) {
      const existing = await stored();
      if (!existing) throw new Error('a message insert changed nothing and no retry explains it');
      return { message: (await serializeMessages(db, conversation, [existing]))[0] as Message, created: false };
    }
    const { id } = row;
    if (audience === null) {
      await db.run(
        sql`UPDATE conversations SET last_message_id = ${id}, last_message_at = ${now} WHERE id = ${conversation.id}`,
      );
    }
    // Your own message is read by you.
    await db.run(
      sql`UPDATE conversation_members SET last_read_message_id = ${id}
          WHERE conversation_id = ${conversation.id} AND user_id = ${member.user_id}`,
    );
    const message = serializeMessageRows(conversation, [row], NO_REACTIONS)[0] as Message;
    await ctx.events.emit(await audienceOf(db, row), 'conversation_message', {
      conversation_id: conversation.id,
      message,
    });
    return { message, created: true };
  });
  // Inside a caller's transaction the turn is the caller's already (waiting for one here could wait on itself).
  return db.inTransaction() ? send() : ctx.chatTurns.run(conversation.id, send);
}

/**
 * Takes the conversation's row lock for the rest of the transaction, before a message (or comment) gets its
 * id. PostgreSQL hands out ids as rows are inserted, not as they commit: without the lock, two sends in one
 * chat could commit in the other order than their ids, and a member would be told of message 9 before 8
 * (or set the chat's latest message back to 8). With it, a chat's messages commit in id order, as they
 * always did on SQLite, whose writers take turns.
 */
export async function lockConversation(db: Store, conversationId: number): Promise<void> {
  if (db.dialect === 'postgres') {
    await db.get(sql`SELECT id FROM conversations WHERE id = ${conversationId} FOR UPDATE`);
  }
}

/**
 * A system message reporting a change (spec §3 event attachments), e.g. a rename or a member added.
 * Call inside the transaction that makes the change.
 */
export async function postSystemEvent(
  ctx: ServerContext,
  conversation: ConversationRow,
  actorId: number,
  attachment: Attachment,
): Promise<Message> {
  const { db } = ctx;
  const now = ctx.clock.now();
  return ctx.events.transaction(async () => {
    await lockConversation(db, conversation.id);
    const { id } = (await db.get<{ id: number }>(
      sql`INSERT INTO messages (stid, conversation_id, user_id, type, message, attachment, created_at, updated_at)
          VALUES (${newStid('msg')}, ${conversation.id}, ${actorId}, 'system', '', ${JSON.stringify(attachment)},
            ${now}, ${now})
          RETURNING id`,
    ))!;
    await db.run(
      sql`UPDATE conversations SET last_message_id = ${id}, last_message_at = ${now} WHERE id = ${conversation.id}`,
    );
    const row = (await db.get<MessageRow>(sql`SELECT * FROM messages WHERE id = ${id}`)) as MessageRow;
    const message = (await serializeMessages(db, conversation, [row]))[0] as Message;
    await ctx.events.emit(await memberIds(db, conversation.id), 'conversation_message', {
      conversation_id: conversation.id,
      message,
    });
    return message;
  });
}
