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
