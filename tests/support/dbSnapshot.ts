import { createHash } from 'node:crypto';
import type { Db } from '../../server/db/database';

/**
 * Snapshots that are taken again only when the database was written since the last one (SQLite's
 * total_changes() of the connection, which a rolled-back write bumps too): a long run of refused requests
 * costs one snapshot, not one per request.
 */
export function snapshotter(db: Db, except: readonly string[] = []): () => Record<string, string> {
  let last: { changes: number; snapshot: Record<string, string> } | null = null;
  return () => {
    const changes = (db.prepare('SELECT total_changes() AS n').get() as { n: number }).n;
    if (last?.changes !== changes) last = { changes, snapshot: dbSnapshot(db, except) };
    return last.snapshot;
  };
}

/**
 * Every table of the database as its row count and a checksum of its rows (in any order), so two
 * snapshots are equal exactly when no row was added, removed or changed. `except` leaves tables out.
 */
export function dbSnapshot(db: Db, except: readonly string[] = []): Record<string, string> {
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((t) => t.name)
    .filter((name) => !except.includes(name));
  const snapshot: Record<string, string> = {};
  for (const name of tables) {
    const rows = db
      .prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`)
      .raw()
      .all() as unknown[][];
    const lines = rows.map((row) =>
      JSON.stringify(row, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)),
    );
    const sum = createHash('sha256').update(lines.sort().join('\n')).digest('hex').slice(0, 16);
    snapshot[name] = `${rows.length} rows ${sum}`;
  }
  return snapshot;
}
