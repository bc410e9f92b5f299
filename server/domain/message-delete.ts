import type { WarningsAnswer } from '../../src/protocol/api';
import type { Attachment } from '../../src/protocol/entities';
import type { ServerContext } from '../context';
import { list, type Store, sql } from '../db/store';
import type { FileStorage } from '../files/storage';
import { thumbnailName } from '../files/thumbnail';
import { forbidden, notFound } from '../http/errors';
import { isCommunityAdmin } from './access';
import { audienceOf, lockConversation } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { fileUrl } from './serialize';
import { visibleMessagesSql } from './visibility';

export const NOT_FOUND_REASON = 'Message not found';
export const NOT_OWNER_REASON = 'You can only delete your own messages';
export const SYSTEM_REASON = 'System messages cannot be deleted';
export const PINNED_REASON = 'Delete for me is unavailable for pinned messages';

type Warning = WarningsAnswer['warnings'][number];

/** The listed messages the member can see, in the order asked, each id once. */
async function visibleRows(
  db: Store,
  conversation: ConversationRow,
  member: MemberRow,
  ids: number[],
): Promise<Map<number, MessageRow>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const visible = visibleMessagesSql('m', conversation.id, member.user_id, member.is_admin === 1);
  const rows = await db.all<MessageRow>(sql`SELECT m.* FROM messages m WHERE ${visible} AND m.id IN ${list(unique)}`);
  return new Map(rows.map((r) => [r.id, r]));
}

/**
 * Splits a batch into the messages to act on and warnings for the rest. When none can be acted on, the
 * whole call fails (404 when none was found, else 403 with the first refusal) and nothing changes.
 */
async function triage(
  db: Store,
  conversation: ConversationRow,
  member: MemberRow,
  ids: number[],
  refuse: (row: MessageRow) => string | null,
): Promise<{ rows: MessageRow[]; warnings: Warning[] }> {
  const found = await visibleRows(db, conversation, member, ids);
  const rows: MessageRow[] = [];
  const warnings: Warning[] = [];
  for (const id of new Set(ids)) {
    const row = found.get(id);
    const reason = row ? refuse(row) : NOT_FOUND_REASON;
    if (reason === null && row) rows.push(row);
    else warnings.push({ message_id: id, reason: reason ?? NOT_FOUND_REASON });
  }
  if (rows.length === 0) {
    const refusal = warnings.find((w) => w.reason !== NOT_FOUND_REASON);
    throw refusal ? forbidden(refusal.reason) : notFound(NOT_FOUND_REASON);
  }
  return { rows, warnings };
}

/** Where a failed file removal is reported; a pino/Fastify logger fits. */
export interface WarnLog {
  warn(details: object, message: string): void;
}

/** The uploaded file an attachment points at (its name under the files directory), if any. */
function attachmentFile(row: MessageRow): string | null {
  if (!row.attachment) return null;
  const url = (JSON.parse(row.attachment) as Partial<Attachment>).url;
  const prefix = fileUrl('');
  return typeof url === 'string' && url.startsWith(prefix) ? url.slice(prefix.length) : null;
}

/**
 * Of the given attachment files, deletes the rows of those no remaining message uses and returns their
 * names. Call inside the transaction that deleted the messages; remove the files from disk after it commits.
 */
async function dropUnusedFiles(db: Store, names: Iterable<string>): Promise<string[]> {
  // The attachment's url, written as each store's expression index on it (messages_attachment_url in
  // schema.ts and postgresSchema.ts) so the lookup uses that index rather than reading every attachment.
  const url = db.dialect === 'postgres' ? sql`(attachment::jsonb ->> 'url')` : sql`json_extract(attachment, '$.url')`;
  const dropped: string[] = [];
  for (const name of new Set(names)) {
    const used = await db.get<{ n: number }>(
      sql`SELECT 1 AS n FROM messages WHERE attachment IS NOT NULL AND ${url} = ${fileUrl(name)} LIMIT 1`,
    );
    if (used) continue;
    if ((await db.run(sql`DELETE FROM files WHERE name = ${name} AND purpose = 'attachment'`)) > 0) dropped.push(name);
  }
  return dropped;
}

/** Removes files from disk; a failure is logged (without the name, which is the file's capability) and ignored. */
async function unlinkFiles(files: FileStorage, names: string[], log: WarnLog): Promise<void> {
  await Promise.all(
    // An image's thumbnail goes with it (docs/server.md "Uploads").
    names.flatMap((name) => [name, thumbnailName(name)]).filter((name) => name !== null).map((name) =>
      files.remove(name).catch((error: unknown) => {
        log.warn({ code: (error as { code?: string }).code }, 'could not remove a deleted attachment file');
      }),
    ),
  );
}

/**
 * Delete for everybody (spec §6 "Delete"): the owner may; in groups, admins (and community admins in
 * channels) may delete others' messages; in one-to-one chats only the owner. System messages stay, and
 * a message already deleted is not found again.
 *
 * The row stays as a tombstone (docs/server.md "Delete for everybody"): its id, stid, sender, time and
 * audience, with `deleted_at` set and everything said in it gone: text, attachment, quote, reactions,
 * receipts, a post's comments, its pin, and a content fingerprint (a hash of the text; an Idempotency-Key
 * one stays, so a late retry of the send still finds its message). History pages, the conversation's last
 * message and a fresh device show it as deleted; it no longer counts as unread. Each member is told about
 * the deleted messages they could see (`conversation_message_delete`, `hidden: false`), which a client
 * turns into the same tombstone. Attachment files no remaining message uses are deleted too: their rows
 * with the messages (so /files/{name} answers 404 at once), the files on disk after the commit. Must not
 * be called inside another transaction (the files would go even if it rolled back).
 */
export async function deleteForEverybody(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  ids: number[],
  log: WarnLog,
): Promise<WarningsAnswer> {
  const { db } = ctx;
  const groupAdmin =
    conversation.is_group === 1 &&
    (member.is_admin === 1 || (await isCommunityAdmin(db, conversation.community_id, member.user_id)));
  const { rows, warnings } = await triage(db, conversation, member, ids, (row) => {
    if (row.deleted_at > 0) return NOT_FOUND_REASON;
    if (row.type === 'system') return SYSTEM_REASON;
    if (row.user_id !== member.user_id && !groupAdmin) return NOT_OWNER_REASON;
    return null;
  });
  const now = ctx.clock.now();
  const { answer, unusedFiles } = await ctx.events.transaction(async () => {
    // The chat's lock first, as a send takes it: the tombstones are written in the chat's turn.
    await lockConversation(db, conversation.id);
    const perUser = new Map<number, MessageRow[]>();
    for (const row of rows) {
      for (const userId of await audienceOf(db, row)) perUser.set(userId, [...(perUser.get(userId) ?? []), row]);
    }
    const ids = rows.map((r) => r.id);
    await db.run(
      sql`UPDATE messages SET message = '', attachment = NULL, quoted_id = NULL, pinned = 0, comments_count = 0,
            edited_at = 0, updated_at = ${now}, deleted_at = ${now},
            fingerprint = CASE WHEN fingerprint LIKE 'k:%' THEN fingerprint ELSE NULL END
          WHERE id IN ${list(ids)}`,
    );
    await db.run(sql`DELETE FROM reactions WHERE message_id IN ${list(ids)}`);
    await db.run(sql`DELETE FROM receipts WHERE message_id IN ${list(ids)}`);
    // A post's comments go with it (their reactions and replies by the foreign keys).
    await db.run(sql`DELETE FROM comments WHERE post_id IN ${list(ids)}`);
    const unusedFiles = await dropUnusedFiles(
      db,
      rows.map(attachmentFile).filter((name): name is string => name !== null),
    );
    // Members who saw the same messages get one shared event.
    const groups = new Map<string, { users: number[]; rows: MessageRow[] }>();
    for (const [userId, seen] of perUser) {
      const key = seen.map((r) => r.id).join(',');
      const group = groups.get(key) ?? { users: [], rows: seen };
      group.users.push(userId);
      groups.set(key, group);
    }
    for (const { users, rows: seen } of groups.values()) {
      await ctx.events.emit(users, 'conversation_message_delete', {
        conversation_id: conversation.id,
        message_ids: seen.map((r) => r.id),
        message_stids: seen.map((r) => r.stid),
        hidden: false,
      });
    }
    return { answer: { message_ids: ids, warnings }, unusedFiles };
  });
  await unlinkFiles(ctx.files, unusedFiles, log);
  return answer;
}

/** Delete for me: hides visible messages from the caller alone, pinned ones excepted (spec §6). */
export async function hideForMe(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  ids: number[],
): Promise<WarningsAnswer> {
  const { db } = ctx;
  const { rows, warnings } = await triage(db, conversation, member, ids, (row) =>
    row.pinned === 1 ? PINNED_REASON : null,
  );
  return ctx.events.transaction(async () => {
    for (const row of rows) {
      await db.run(
        sql`INSERT INTO hidden_messages (user_id, message_id) VALUES (${member.user_id}, ${row.id})
            ON CONFLICT DO NOTHING`,
      );
    }
    await ctx.events.emit([member.user_id], 'conversation_message_delete', {
      conversation_id: conversation.id,
      message_ids: rows.map((r) => r.id),
      message_stids: rows.map((r) => r.stid),
      hidden: true,
    });
    return { message_ids: rows.map((r) => r.id), warnings };
  });
}
