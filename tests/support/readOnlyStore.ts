import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import path from 'node:path';
import { openStore } from '../../server/db/open';
import { Store } from '../../server/db/store';

/**
 * Runs `query` on the store of a server running in another process, for a test to read what it holds, and
 * closes it: its SQLite file opened read-only beside it (SQLite's WAL allows it; the file must exist), or its
 * PostgreSQL when it has one (a connection of the test's own, which only reads).
 */
export async function readStore<T>(
  location: { dataDir: string; databaseUrl?: string | undefined },
  query: (db: Store) => Promise<T>,
): Promise<T> {
  let db: Store;
  if (location.databaseUrl) {
    db = (await openStore({ dataDir: location.dataDir, databaseUrl: location.databaseUrl })).store;
  } else {
    const file = path.join(location.dataDir, 'messenger.db');
    const database = new Database(file, { readonly: true, fileMustExist: true });
    db = new Store('sqlite', new Kysely<unknown>({ dialect: new SqliteDialect({ database }) }), file);
  }
  try {
    return await query(db);
  } finally {
    await db.close();
  }
}
