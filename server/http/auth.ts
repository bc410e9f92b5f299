import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type Store, sql } from '../db/store';
import { unauthorized } from './errors';

export interface AuthUser {
  id: number;
  stid: string;
  country_code: string;
  nickname: string;
}

/** A user signed in by a token, with that token's session id (docs/server.md "Sessions"). */
export interface AuthSession extends AuthUser {
  session: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A random 256-bit token; only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * How stale a session's `last_used_at` may get before a request writes it again: not every request writes
 * (the nodes of a cluster share the store), and a day's idle limit does not need the millisecond.
 */
export const LAST_USED_STEP_MS = 60_000;

/** What a token check needs besides the token: the time now and how long a session may stay unused. */
export interface TokenCheck {
  now: number;
  idleMs: number;
}

/**
 * The user and session of a token, or undefined when it is unknown, its user deleted, or it went unused for
 * longer than `idleMs` (then its row is deleted here: docs/server.md "Sessions").
 */
export async function userForToken(db: Store, token: string | undefined, check: TokenCheck): Promise<AuthSession | undefined> {
  if (!token || token.length > 200) return undefined;
  const hash = hashToken(token);
  const row = await db.get<AuthUser & { session: string; last_used_at: number }>(
    sql`SELECT u.id, u.stid, u.country_code, u.nickname, t.sid AS session, t.last_used_at
        FROM tokens t JOIN users u ON u.id = t.user_id
        WHERE t.hash = ${hash} AND u.deleted_at = '0' AND u.deactivated_at = 0`,
  );
  if (!row) return undefined;
  const { now, idleMs } = check;
  const lastUsed = Number(row.last_used_at);
  if (now - lastUsed > idleMs) {
    await db.run(sql`DELETE FROM tokens WHERE hash = ${hash} AND last_used_at = ${lastUsed}`);
    return undefined;
  }
  if (now - lastUsed >= LAST_USED_STEP_MS) {
    // Conditional, so the requests of one minute on several nodes write the row once.
    await db.run(sql`UPDATE tokens SET last_used_at = ${now} WHERE hash = ${hash} AND last_used_at <= ${now - LAST_USED_STEP_MS}`);
  }
  return { id: row.id, stid: row.stid, country_code: row.country_code, nickname: row.nickname, session: row.session };
}

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthSession | undefined;
  }
  interface FastifyContextConfig {
    /** Routes that answer without an Auth-Token. */
    public?: boolean;
  }
}

/** The signed-in user of a request that passed the auth hook. */
export function me(request: FastifyRequest): AuthSession {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}
