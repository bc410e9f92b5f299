import type { Db } from '../db/database';
import { badRequest } from '../http/errors';
import { INVALID_PARAMETERS } from './communityAccess';

/** One page of posts or comments: `limit` rows before, after or around an id, or the latest ones. */
export interface PageQuery {
  limit: number;
  before?: number | undefined;
  after?: number | undefined;
  around?: number | undefined;
}

/** At most one anchor may be given; two would ask for two different pages. */
export function checkPageQuery(q: PageQuery): void {
  const anchors = [q.before, q.after, q.around].filter((v) => v !== undefined);
  if (anchors.length > 1) throw badRequest(INVALID_PARAMETERS);
}

/**
 * Runs `select` (a trusted `SELECT ... WHERE ...` fragment with `args`) for one page, keyed on the
 * integer column `key`, and returns the rows oldest first. `around` centres the page on the anchor,
 * which is included when it exists.
 */
export function pageRows<T>(db: Db, select: string, key: string, args: number[], q: PageQuery): T[] {
  const newest = (extra: string, extraArgs: number[], limit: number) =>
    db
      .prepare<number[], T>(`${select} ${extra} ORDER BY ${key} DESC LIMIT ?`)
      .all(...args, ...extraArgs, limit)
      .reverse();
  const oldest = (extra: string, extraArgs: number[], limit: number) =>
    db.prepare<number[], T>(`${select} ${extra} ORDER BY ${key} ASC LIMIT ?`).all(...args, ...extraArgs, limit);
  if (q.before !== undefined) return newest(`AND ${key} < ?`, [q.before], q.limit);
  if (q.after !== undefined) return oldest(`AND ${key} > ?`, [q.after], q.limit);
  if (q.around !== undefined) {
    const earlier = Math.floor(q.limit / 2);
    const head = earlier > 0 ? newest(`AND ${key} < ?`, [q.around], earlier) : [];
    return [...head, ...oldest(`AND ${key} >= ?`, [q.around], q.limit - earlier)];
  }
  return newest('', [], q.limit);
}
