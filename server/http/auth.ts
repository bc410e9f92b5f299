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

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A random 256-bit token; only its hash is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function userForToken(db: Store, token: string | undefined): Promise<AuthUser | undefined> {
  if (!token || token.length > 200) return undefined;
  return db.get<AuthUser>(
    sql`SELECT u.id, u.stid, u.country_code, u.nickname FROM tokens t JOIN users u ON u.id = t.user_id
        WHERE t.hash = ${hashToken(token)} AND u.deleted_at = '0' AND u.deactivated_at = 0`,
  );
}

declare module 'fastify' {
  interface FastifyRequest {
    authUser: AuthUser | undefined;
  }
  interface FastifyContextConfig {
    /** Routes that answer without an Auth-Token. */
    public?: boolean;
  }
}

/** The signed-in user of a request that passed the auth hook. */
export function me(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw unauthorized();
  return request.authUser;
}
