import type { Message } from '../../src/protocol/entities';
import { type Store, sql } from '../db/store';
import { HEADER_AFTER, HEADER_BEFORE } from '../../src/protocol/api';
import { badRequest } from '../http/errors';
import { ID_RANGE, numberHeader } from '../http/numbers';
import { type PageQuery, pageRows } from './channelPaging';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

/** Where a page of history starts: the latest, older than a message (`Before`), or newer than one (`After`). */
export type PageCursor = Pick<PageQuery, 'before' | 'after'>;

/**
 * The page's cursor from its headers: `Before` (spec §7) or our `After` (issue 13), each a message id by the
 * number rule. Both at once ask for two different pages: refused, naming both.
 */
export function parseCursor(before: string | string[] | undefined, after: string | string[] | undefined): PageCursor {
  const b = numberHeader(before, HEADER_BEFORE, ID_RANGE, null);
  const a = numberHeader(after, HEADER_AFTER, ID_RANGE, null);
  if (b !== null && a !== null) throw badRequest('Before and After cannot be used together');
  return { before: b ?? undefined, after: a ?? undefined };
}

/**
 * One page of history as `member` sees it, oldest first: the `count` visible messages older than `before`
 * (or the latest), or, with `after`, the `count` visible messages right after that id. Paging is by id, so
 * a message arriving between two pages never shifts them.
 */
export async function messagesPage(
  db: Store,
  conversation: ConversationRow,
  member: MemberRow,
  count: number,
  page: PageCursor,
): Promise<Message[]> {
  const visible = visibleMessagesSql('m', conversation.id, member.user_id, member.is_admin === 1);
  const rows = await pageRows<MessageRow>(db, sql`SELECT m.* FROM messages m WHERE ${visible}`, 'm.id', {
    limit: count,
    ...page,
  });
  return serializeMessages(db, conversation, rows);
}
