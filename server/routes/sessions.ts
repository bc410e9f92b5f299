import type { FastifyInstance } from 'fastify';
import type { SessionsAnswer, SessionsEndedAnswer } from '../../src/protocol/api';
import type { ServerContext } from '../context';
import { endSession, endSessions, listSessions } from '../domain/sessions';
import { me } from '../http/auth';
import { notFound } from '../http/errors';
import { ok } from '../http/reply';

/** A session id as `newSid` makes them; anything else names no session. */
const SID = /^[0-9a-f]{24}$/;

/**
 * Logout and the account page's sessions (docs/server.md "Sessions"): each ended session's row is deleted,
 * so its token answers 401 from then on, and its open sockets are closed on every node.
 */
export function registerSessionRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db } = ctx;

  app.post('/v1/auth/logout', async (request) => {
    const { id, session } = me(request);
    const ended = await endSession(db, id, session);
    if (ended) ctx.sessionsEnded([session]);
    return ok<SessionsEndedAnswer>({ ended: ended ? 1 : 0 });
  });

  app.get('/v1/me/sessions', async (request) => {
    const { id, session } = me(request);
    return ok<SessionsAnswer>({ sessions: await listSessions(db, id, session) });
  });

  // Before `/:id`, and no id is ever "others" (ids are hex).
  app.delete('/v1/me/sessions/others', async (request) => {
    const { id, session } = me(request);
    const ended = await endSessions(db, id, session);
    ctx.sessionsEnded(ended);
    return ok<SessionsEndedAnswer>({ ended: ended.length });
  });

  app.delete<{ Params: { id: string } }>('/v1/me/sessions/:id', async (request) => {
    const { id } = me(request);
    const sid = request.params.id;
    // Another user's session is answered as one that does not exist: ids are not confirmed to strangers.
    if (!SID.test(sid) || !(await endSession(db, id, sid))) throw notFound('Session not found');
    ctx.sessionsEnded([sid]);
    return ok<SessionsEndedAnswer>({ ended: 1 });
  });
}
