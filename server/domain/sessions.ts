import { randomBytes } from 'node:crypto';
import type { SessionEntry } from '../../src/protocol/api';
import { type Store, sql } from '../db/store';
import { hashToken } from '../http/auth';
import type { DeviceNames } from './deviceLabel';

/**
 * Sessions (docs/server.md "Sessions"): one row of `tokens` each, named by an opaque id (`sid`), never by
 * the token or its hash. Ending one deletes its row; the caller closes its sockets (the hub's
 * `closeSessions`, through `ServerContext.sessionsEnded`).
 */

const DAY_MS = 24 * 60 * 60_000;

/** How long a session may go unused before it expires (SESSION_IDLE_DAYS). */
export const idleMs = (idleDays: number): number => idleDays * DAY_MS;

export const newSid = (): string => randomBytes(12).toString('hex');

/** Stores a new session for `token` (only its hash); answers its id. */
export async function insertSession(
  db: Store,
  session: { token: string; userId: number; now: number; device?: DeviceNames },
): Promise<string> {
  const sid = newSid();
  const { token, userId, now, device } = session;
  await db.run(
    sql`INSERT INTO tokens (hash, user_id, created_at, sid, last_used_at, browser, os)
        VALUES (${hashToken(token)}, ${userId}, ${now}, ${sid}, ${now}, ${device?.browser ?? ''}, ${device?.os ?? ''})`,
  );
  return sid;
}

/** This user's sessions: the one asking first (marked `current`), then the latest used first. */
export async function listSessions(db: Store, userId: number, current: string): Promise<SessionEntry[]> {
  const rows = await db.all<{ sid: string; browser: string; os: string; created_at: number; last_used_at: number }>(
    sql`SELECT sid, browser, os, created_at, last_used_at FROM tokens WHERE user_id = ${userId}
        ORDER BY last_used_at DESC, created_at DESC`,
  );
  const ordered = [...rows.filter((r) => r.sid === current), ...rows.filter((r) => r.sid !== current)];
  return ordered.map((r) => ({
    id: r.sid,
    browser: r.browser,
    os: r.os,
    created_at: Number(r.created_at),
    last_active_at: Number(r.last_used_at),
    current: r.sid === current,
  }));
}

/** Ends one of this user's sessions; answers whether there was one (another user's id is none). */
export async function endSession(db: Store, userId: number, sid: string): Promise<boolean> {
  const ended = await db.all<{ sid: string }>(sql`DELETE FROM tokens WHERE user_id = ${userId} AND sid = ${sid} RETURNING sid`);
  return ended.length > 0;
}

/**
 * Ends every session of a user, or all but `except` (the one asking). Answers the ids ended, whose sockets
 * the caller closes. For the account page's "End all other sessions", and for an operator's tools: a
 * process without the server's sockets (a CLI) ends the tokens, and their sockets stop at their next
 * reconnect or request (docs/server.md "Sessions").
 */
export async function endSessions(db: Store, userId: number, except?: string): Promise<string[]> {
  const ended = await db.all<{ sid: string }>(
    except === undefined
      ? sql`DELETE FROM tokens WHERE user_id = ${userId} RETURNING sid`
      : sql`DELETE FROM tokens WHERE user_id = ${userId} AND sid != ${except} RETURNING sid`,
  );
  return ended.map((r) => r.sid);
}

/** Deletes every session unused since `cutoff` (epoch ms): expired ones, which no request can use any more. */
export async function pruneIdleSessions(db: Store, cutoff: number): Promise<number> {
  return db.run(sql`DELETE FROM tokens WHERE last_used_at < ${cutoff}`);
}
