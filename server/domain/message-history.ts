import type { Message } from '../../src/protocol/entities';
import { type Store, sql } from '../db/store';
import { HEADER_AFTER, HEADER_BEFORE, HEADER_SINCE } from '../../src/protocol/api';
import { badRequest } from '../http/errors';
import { EVENT_ID_RANGE, ID_RANGE, numberHeader } from '../http/numbers';
import { type PageQuery, pageRows } from './channelPaging';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { serializeMessages } from './serialize';
import { visibleMessagesSql } from './visibility';

/**
 * Where a page of history starts: the latest, older than a message (`Before`), newer than one (`After`), or
 * at the first message sent at or after a time (`since`, epoch seconds: `Since`, issue 24).
 */
export type PageCursor = Pick<PageQuery, 'before' | 'after'> & { since?: number | undefined };

/**
 * The page's cursor from its headers: `Before` (spec §7) or our `After` (issue 13), each a message id by the
 * number rule. Both at once ask for two different pages: refused, naming both.
 */
export function parseCursor(
  before: string | string[] | undefined,
  after: string | string[] | undefined,
  since?: string | string[] | undefined,
): PageCursor {
  const b = numberHeader(before, HEADER_BEFORE, ID_RANGE, null);
  const a = numberHeader(after, HEADER_AFTER, ID_RANGE, null);
  // Time 0 is a time (the first message of all), so the range starts at 0.
  const s = numberHeader(since, HEADER_SINCE, EVENT_ID_RANGE, null);
  if (b !== null && a !== null) throw badRequest('Before and After cannot be used together');
  if (s !== null && (b !== null || a !== null)) throw badRequest('Since cannot be used with Before or After');
  return { before: b ?? undefined, after: a ?? undefined, since: s ?? undefined };
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
  const { since, ...byId } = page;
  const select =
    since === undefined
      ? sql`SELECT m.* FROM messages m WHERE ${visible}`
      : // One statement (issue 24): the first message at or after the time, by the (conversation_id,
        // created_at) index, and from it the page by id; none then is an empty page.
        sql`SELECT m.* FROM messages m WHERE ${visible} AND m.id >= COALESCE((
          SELECT f.id FROM messages f WHERE f.conversation_id = ${conversation.id} AND f.created_at >= ${since * 1000}
          ORDER BY f.created_at, f.id LIMIT 1), ${Number.MAX_SAFE_INTEGER})`;
  const query = since === undefined ? { limit: count, ...byId } : { limit: count, after: 0 };
  const rows = await pageRows<MessageRow>(db, select, 'm.id', query);
  return serializeMessages(db, conversation, rows);
}
