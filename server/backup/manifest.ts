/** `manifest.json` of a backup (docs/server.md "Backups"): what it holds, to check a restore against. */
export interface BackupManifest {
  format: 1;
  /** When the database was copied (ISO time). */
  createdAt: string;
  store: 'sqlite' | 'postgres';
  /** How many migrations the copied database had run (SQLite's user_version, PostgreSQL's schema_version). */
  schemaVersion: number;
  /** Rows in the copy: what a restore must find again. */
  counts: { users: number; conversations: number; messages: number; files: number };
  /** Uploaded files copied into `files/`, and those the database names that were not there to copy. */
  files: { copied: number; bytes: number; missing: string[] };
  /** The PostgreSQL dump in the backup (`postgres.dump`, pg_dump's custom format), or why there is none. */
  postgresDump?: { file: string } | { skipped: string };
}

export const MANIFEST = 'manifest.json';
export const SQLITE_FILE = 'messenger.db';
export const POSTGRES_DUMP = 'postgres.dump';
export const FILES_DIR = 'files';

export const COUNT_TABLES = ['users', 'conversations', 'messages', 'files'] as const;
