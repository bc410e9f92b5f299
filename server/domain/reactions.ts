import type { Message } from '../../src/protocol/entities';
import { isValidReaction } from '../../src/protocol/reactions';
import type { ServerContext } from '../context';
import { type Store, sql } from '../db/store';
import { badRequest } from '../http/errors';
import { audienceOf, MESSAGE_NOT_FOUND, requireVisibleMessage } from './messages';
import type { ConversationRow, MemberRow, MessageRow } from './rows';
import { messageReactions, serializeMessages } from './serialize';

/**
 * Distinct reactions one user may put on one message, post or comment; bounds a reaction list.
 */
export const REACTIONS_PER_USER_MAX = 10;

/** The two reaction tables: one for messages (posts included), one for comments. */
const TABLES = {
  message: { table: 'reactions', key: 'message_id', label: 'message' },
  comment: { table: 'comment_reactions', key: 'comment_id', label: 'comment' },
} as const;

/**
 * Adds (`present`) or removes one user's reaction on a message or a comment, in the caller's transaction.
 * Both are idempotent; adding a new reaction past REACTIONS_PER_USER_MAX is a 400. Returns whether a row
 * changed, so the caller tells others only about a real change.
 */
export async function toggleReaction(
  db: Store,
  target: { kind: keyof typeof TABLES; id: number },
  userId: number,
  reaction: string,
  present: boolean,
  now: number,
): Promise<boolean> {
  const { table, key, label } = TABLES[target.kind];
  const from = sql.table(table);
  const owner = sql.ref(key);
  if (!present) {
    const changed = await db.run(
      sql`DELETE FROM ${from} WHERE ${owner} = ${target.id} AND user_id = ${userId} AND reaction = ${reaction}`,
    );
    return changed > 0;
  }
  if (db.dialect === 'postgres') {
    // One user's additions to one target take turns, so each count sees the rows the others added (SQLite's
    // writers take turns anyway). An advisory lock, not a row lock: nothing else takes it, so it cannot
    // join the user-row locks the events take into a deadlock. The two-key form is apart from the
    // migrations' one-key lock.
    await db.all(sql`SELECT pg_advisory_xact_lock(${userId}::int4, ${target.id}::int4)`);
  }
  const exists = await db.get(
    sql`SELECT 1 AS n FROM ${from} WHERE ${owner} = ${target.id} AND user_id = ${userId} AND reaction = ${reaction}`,
  );
  if (exists) return false;
  const mine =
    (await db.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM ${from} WHERE ${owner} = ${target.id} AND user_id = ${userId}`,
    ))?.n ?? 0;
  if (mine >= REACTIONS_PER_USER_MAX) {
    throw badRequest(`At most ${REACTIONS_PER_USER_MAX} reactions per ${label}`);
  }
  // Two concurrent requests for the same reaction: the second finds the first's row and changes nothing.
  const added = await db.run(
    sql`INSERT INTO ${from} (${owner}, user_id, reaction, set_at) VALUES (${target.id}, ${userId}, ${reaction}, ${now})
        ON CONFLICT DO NOTHING`,
  );
  return added > 0;
}

/**
 * Adds or removes the caller's reaction on a message (or channel post) they can see (spec §6: anyone
 * may react). Both are idempotent; only a real change tells the message's audience, with the full
 * reaction list. `notFound` is the 404's text ("Post not found" for the channel calls).
 */
export async function setReaction(
  ctx: ServerContext,
  conversation: ConversationRow,
  member: MemberRow,
  messageId: number,
  reaction: string,
  present: boolean,
  notFound: string = MESSAGE_NOT_FOUND,
): Promise<Message> {
  const { db } = ctx;
  if (!isValidReaction(reaction)) throw badRequest('Invalid parameters provided');
  const row = await requireVisibleMessage(db, conversation.id, member, messageId, notFound);
  return ctx.events.transaction(async () => {
    const target = { kind: 'message', id: row.id } as const;
    if (await toggleReaction(db, target, member.user_id, reaction, present, ctx.clock.now())) {
      await ctx.events.emit(await audienceOf(db, row), 'reactions_changed', {
        conversation_id: conversation.id,
        message_id: row.id,
        message_stid: row.stid,
        reactions: (await messageReactions(db, [row.id])).get(row.id) ?? [],
      });
    }
    const fresh = (await db.get<MessageRow>(sql`SELECT * FROM messages WHERE id = ${row.id}`)) as MessageRow;
    return (await serializeMessages(db, conversation, [fresh]))[0] as Message;
  });
}
