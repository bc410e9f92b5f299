import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './schema';

export type Db = Database.Database;

/**
 * The database was migrated by a newer build than this one. Thrown before anything is written: an older
 * build rewriting `user_version` down would make the newer build run its later migrations a second time.
 */
export class DatabaseTooNewError extends Error {
  constructor(
    readonly databaseVersion: number,
    readonly codeVersion: number,
    file: string,
  ) {
    super(
      `The database ${file} is at schema version ${databaseVersion}, but this build of the server knows only ` +
        `${codeVersion} migrations: it was migrated by a newer build. Start that build (or a newer one) on it; ` +
        'nothing was changed.',
    );
    this.name = 'DatabaseTooNewError';
  }
}

/**
 * Opens (creating if needed) the SQLite database in WAL mode and migrates it.
 * Returns whether the database was new, so the caller can seed it. `migrations` is this build's list; tests
 * pass a shorter one to play an older build.
 */
export function openDatabase(dataDir: string, migrations: readonly string[] = MIGRATIONS): { db: Db; created: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'messenger.db');
  const db = new Database(file);
  // Read before any pragma that could write (journal mode), so a refused database is left exactly as it was.
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) {
    db.close();
    throw new DatabaseTooNewError(version, migrations.length, file);
  }
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a killed process (the WAL is in the OS cache); FULL also survives power loss.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const created = version === 0;
  const migrate = db.transaction(() => {
    for (let i = version; i < migrations.length; i++) {
      db.exec(migrations[i] as string);
    }
    db.pragma(`user_version = ${migrations.length}`);
  });
  migrate();
  return { db, created };
}
