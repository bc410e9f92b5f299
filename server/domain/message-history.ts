import type { Message } from '../../src/protocol/entities';
import { MESSAGE_PAGE_MAX, MESSAGE_PAGE_SIZE } from '../../src/protocol/constants';
import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

/** The Message-Count header: absent means the page size of spec §9; anything else must be 1..100. */
export function parseMessageCount(raw: string | string[] | undefined): number {
  if (raw === undefined) return MESSAGE_PAGE_SIZE;
  const n = typeof raw === 'string' && /^\d{1,3}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(n >= 1 && n <= MESSAGE_PAGE_MAX)) {
    throw badRequest(`Message-Count must be a whole number from 1 to ${MESSAGE_PAGE_MAX}`);
  }
  return n;
}

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
