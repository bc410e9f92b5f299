import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS } from './schema';

export type Db = Database.Database;

/**
 * Opens (creating if needed) the SQLite database in WAL mode and migrates it.
 * Returns whether the database was new, so the caller can seed it.
 */
export function openDatabase(dataDir: string): { db: Db; created: boolean } {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(path.join(dataDir, 'messenger.db'));
  db.pragma('journal_mode = WAL');
  // NORMAL in WAL mode survives a killed process (the WAL is in the OS cache); FULL also survives power loss.
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const version = db.pragma('user_version', { simple: true }) as number;
  const created = version === 0;
  const migrate = db.transaction(() => {
    for (let i = version; i < MIGRATIONS.length; i++) {
      db.exec(MIGRATIONS[i] as string);
    }
    db.pragma(`user_version = ${MIGRATIONS.length}`);
  });
  migrate();
  return { db, created };
}
