import { type Query, sql } from '../db/store';

/**
 * The SQL condition for "messages of the conversation that the viewer may see": not hidden by them, and for
 * broadcast-group replies (audience 'admins') only the sender and the broadcasters. `alias` names the
 * messages table in the statement (a constant, never input).
 */
export function visibleMessagesSql(
  alias: string,
  conversationId: number,
  viewerId: number,
  viewerIsAdmin: boolean,
): Query<unknown> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  // An admin sees every reply; the flag is decided here rather than sent as a parameter.
  const audience = viewerIsAdmin
    ? sql``
    : sql`AND (${column('audience')} IS NULL OR ${column('user_id')} = ${viewerId})`;
  return sql`${column('conversation_id')} = ${conversationId}
    AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = ${viewerId} AND h.message_id = ${column('id')})
    ${audience}`;
}

/**
 * The SQL condition for "message counts toward the viewer's unread count", on top of being visible past
 * their read point: another user's message, not a system event (a rename, a new picture, members added
 * or removed: spec §3 event attachments), which is shown but never unread (docs/ui.md "Event rows"), nor a message
 * deleted for everybody (its tombstone is shown, but there is nothing left to read).
 */
export function countsAsUnreadSql(alias: string, viewerId: number): Query<unknown> {
  return sql`${sql.ref(`${alias}.user_id`)} != ${viewerId} AND ${sql.ref(`${alias}.type`)} != 'system'
    AND ${sql.ref(`${alias}.deleted_at`)} = 0`;
}
