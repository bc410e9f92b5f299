import type { Message } from '../../src/protocol/entities';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

/** The Before header: absent means "the latest"; otherwise a message id. */
export function parseBefore(raw: string | string[] | undefined): number | null {
  if (raw === undefined) return null;
  const n = typeof raw === 'string' && /^\d{1,15}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= 1)) throw badRequest('Before must be a message id');
  return n;
}

/**
 * One page of history as `member` sees it: the `count` visible messages older than `before` (or the
 * latest), oldest first. Paging is by id, so a message arriving between two pages never shifts them.
 */
export function messagesPage(
  db: Db,
  conversation: ConversationRow,
  member: MemberRow,
  count: number,
  before: number | null,
): Message[] {
  const rows = db
    .prepare<number[], MessageRow>(
      `SELECT m.* FROM messages m WHERE ${visibleMessagesSql('m')} AND m.id < ? ORDER BY m.id DESC LIMIT ?`,
    )
    .all(conversation.id, member.user_id, member.user_id, member.is_admin, before ?? Number.MAX_SAFE_INTEGER, count)
    .reverse();
  return serializeMessages(db, conversation, rows);
}
