import type { FastifyInstance } from 'fastify';
import type { PresenceAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { me } from '../http/auth';
import { notFound } from '../http/errors';
import { ID_RANGE, wholeNumber } from '../http/numbers';
import { ok } from '../http/reply';
import { epochSeconds } from '../domain/ids';

/**
 * Our addition (issue 23, docs/server.md): whether a person is online now and when their last socket closed,
 * for a chat opened after their `user_presence` went out (the event tells only changes). Only those who
 * would get that event (who share a chat with them) may ask; to anyone else the person does not exist.
 */
export function registerPresenceRoutes(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { id: string } }>('/v1/users/:id/presence', async (request) => {
    const userId = wholeNumber(request.params.id, ID_RANGE);
    const self = me(request).id;
    if (userId === null || userId === self) throw notFound('User not found');
    const row = await ctx.db.get<{ last_seen_at: number | null }>(
      sql`SELECT u.last_seen_at FROM users u WHERE u.id = ${userId} AND EXISTS (
            SELECT 1 FROM conversation_members m1
            JOIN conversation_members m2 ON m2.conversation_id = m1.conversation_id
            JOIN conversations c ON c.id = m1.conversation_id AND c.group_type = 'normal'
            WHERE m1.user_id = ${self} AND m2.user_id = ${userId})`,
    );
    if (!row) throw notFound('User not found');
    const online = await ctx.presence.isOnline(userId);
    const lastSeen = row.last_seen_at === null ? null : epochSeconds(Number(row.last_seen_at));
    return ok<PresenceAnswer>({ user_id: userId, online, last_seen: lastSeen });
  });
}
