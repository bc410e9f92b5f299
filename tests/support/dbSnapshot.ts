import { createHash } from 'node:crypto';
import { type Store, sql } from '../../server/db/store';

/**
 * Snapshots that are taken again only when the database was written since the last one, so a long run of
 * refused requests costs one snapshot, not one per request. On SQLite the sign is total_changes() of the
 * store's one connection (which a rolled-back write bumps too); on PostgreSQL the xmax of a fresh snapshot, one
 * past the newest finished transaction that wrote anything (committed or rolled back: a transaction gets its id
 * with its first write). Another database's writes in the same PostgreSQL bump it too: that only costs a
 * snapshot more.
 */
export function snapshotter(db: Store, except: readonly string[] = []): () => Promise<Record<string, string>> {
  let last: { changes: string; snapshot: Record<string, string> } | null = null;
  return async () => {
    const changes = (await db.get<{ n: number | string }>(writeMark(db)))?.n;
    if (last?.changes !== String(changes)) last = { changes: String(changes), snapshot: await dbSnapshot(db, except) };
    return last.snapshot;
  };
}

/** A value that changes whenever the database was written (see snapshotter). */
function writeMark(db: Store) {
  return db.dialect === 'sqlite'
    ? sql<{ n: number }>`SELECT total_changes() AS n`
    : sql<{ n: string }>`SELECT CAST(pg_snapshot_xmax(pg_current_snapshot()) AS TEXT) AS n`;
}

/** The names of the database's own tables, in order. */
async function tableNames(db: Store): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(sql`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
      : await db.all<{ name: string }>(
          sql`SELECT table_name AS name FROM information_schema.tables
              WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
        );
  return rows.map((t) => t.name);
}

/**
 * Every table of the database as its row count and a checksum of its rows (in any order), so two
 * snapshots are equal exactly when no row was added, removed or changed. `except` leaves tables out.
 */
export async function dbSnapshot(db: Store, except: readonly string[] = []): Promise<Record<string, string>> {
  const tables = (await tableNames(db)).filter((name) => !except.includes(name));
  const snapshot: Record<string, string> = {};
  for (const name of tables) {
    const rows = await db.all<Record<string, unknown>>(sql`SELECT * FROM ${sql.table(name)}`);
    // A row's values in column order (the columns are the same in every row of a table).
    const lines = rows.map((row) =>
      JSON.stringify(Object.values(row), (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value)),
    );
    const sum = createHash('sha256').update(lines.sort().join('\n')).digest('hex').slice(0, 16);
    snapshot[name] = `${rows.length} rows ${sum}`;
  }
  return snapshot;
}
