import { randomBytes } from 'node:crypto';
import { type Store, sql } from '../db/store';
import { ID_RANGE, wholeNumber } from '../http/numbers';

/** String ids (`stid`) are random, so they reveal neither counts nor order. */
export function newStid(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

/** Accepts a numeric id (by the number rule of server/http/numbers.ts) or a stid in a path segment. */
export function parseIdOrStid(raw: string): { id: number } | { stid: string } | null {
  const id = wholeNumber(raw, ID_RANGE);
  if (id !== null) return { id };
  if (/^[a-z]{1,4}_[A-Za-z0-9_-]{6,32}$/.test(raw)) return { stid: raw };
  return null;
}

/** The tables whose rows a path may name by `id` or `stid`. */
export type KeyedTable = 'conversations' | 'communities' | 'users';

/**
 * The row a path segment names by numeric id or stid: undefined when there is none, null when the
 * segment is neither (the caller answers that with its own 400).
 */
export async function findByIdOrStid<Row>(db: Store, table: KeyedTable, raw: string): Promise<Row | undefined | null> {
  const key = parseIdOrStid(raw);
  if (!key) return null;
  return 'id' in key
    ? db.get<Row>(sql`SELECT * FROM ${sql.table(table)} WHERE id = ${key.id}`)
    : db.get<Row>(sql`SELECT * FROM ${sql.table(table)} WHERE stid = ${key.stid}`);
}

/** Epoch seconds as a string, the wire form of created_at (spec §3). */
export function epochSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}
