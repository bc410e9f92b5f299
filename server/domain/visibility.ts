/**
 * The SQL condition for "messages of conversation ? that user ? may see": not hidden by them, and for
 * broadcast-group replies (audience 'admins') only the sender and the broadcasters.
 * Parameters, in order: conversation id, viewer id, viewer id, viewer-is-admin (1 or 0).
 */
export function visibleMessagesSql(alias: string): string {
  return `${alias}.conversation_id = ?
    AND NOT EXISTS (SELECT 1 FROM hidden_messages h WHERE h.user_id = ? AND h.message_id = ${alias}.id)
    AND (${alias}.audience IS NULL OR ${alias}.user_id = ? OR ? = 1)`;
}

/**
 * The SQL condition for "message counts toward the viewer's unread count", on top of being visible past
 * their read point: another user's message, not a system event (a rename, a new picture, members added
 * or removed: spec §3 event attachments), which is shown but never unread (issue 10).
 * Parameter: the viewer id.
 */
export function countsAsUnreadSql(alias: string): string {
  return `${alias}.user_id != ? AND ${alias}.type != 'system'`;
}
