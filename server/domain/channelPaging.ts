import { type Query, type Store, sql } from '../db/store';
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
 * Runs `select` (a trusted `SELECT ... WHERE ...` statement, its values as parameters) for one page, keyed
 * on the integer column `key` (a constant such as 'm.id'), and returns the rows oldest first. `around`
 * centres the page on the anchor, which is included when it exists.
 */
export async function pageRows<T>(db: Store, select: Query<unknown>, key: string, q: PageQuery): Promise<T[]> {
  const column = sql.ref(key);
  const newest = async (extra: Query<unknown>, limit: number) =>
    (await db.all<T>(sql`${select} ${extra} ORDER BY ${column} DESC LIMIT ${limit}`)).reverse();
  const oldest = (extra: Query<unknown>, limit: number) =>
    db.all<T>(sql`${select} ${extra} ORDER BY ${column} ASC LIMIT ${limit}`);
  if (q.before !== undefined) return newest(sql`AND ${column} < ${q.before}`, q.limit);
  if (q.after !== undefined) return oldest(sql`AND ${column} > ${q.after}`, q.limit);
  if (q.around !== undefined) {
    const earlier = Math.floor(q.limit / 2);
    const head = earlier > 0 ? await newest(sql`AND ${column} < ${q.around}`, earlier) : [];
    return [...head, ...(await oldest(sql`AND ${column} >= ${q.around}`, q.limit - earlier))];
  }
  return newest(sql``, q.limit);
}
