import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { AdminError, storeLocation } from '../admin/command';
import { copyNewFiles, isEmptyDir } from './files';
import { type BackupManifest, FILES_DIR, MANIFEST, POSTGRES_DUMP, SQLITE_FILE } from './manifest';
import { POSTGRES_BY_HAND, restoreArguments } from './postgres';

/**
 * Restores a backup of `backup()` into the server's data (docs/server.md "Backups"), with the server stopped:
 * into an empty DATA_DIR (no database, no files), or, with DATABASE_URL, an empty PostgreSQL database. It never
 * writes over data: a server running on that DATA_DIR has its database there, so it is refused too.
 */
export async function restore(folder: string, env: NodeJS.ProcessEnv): Promise<BackupManifest> {
  const location = storeLocation(env);
  const manifestFile = path.join(folder, MANIFEST);
  if (!existsSync(manifestFile)) throw new AdminError(`${folder} is not a backup: it has no ${MANIFEST}`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BackupManifest;
  const targetFiles = path.join(location.dataDir, FILES_DIR);
  if (!isEmptyDir(targetFiles)) {
    throw new AdminError(`${targetFiles} is not empty: stop the server and move the old data aside first`);
  }
  if (manifest.store === 'sqlite') {
    if (location.databaseUrl) {
      throw new AdminError('This backup is of SQLite, but DATABASE_URL is set: unset it to restore into DATA_DIR');
    }
    await restoreSqlite(path.join(folder, SQLITE_FILE), location.dataDir, manifest);
  } else {
    if (!location.databaseUrl) throw new AdminError('This backup is of PostgreSQL: set DATABASE_URL to the empty database to restore into');
    await restorePostgres(path.join(folder, POSTGRES_DUMP), location.databaseUrl);
  }
  const copied = copyNewFiles(path.join(folder, FILES_DIR), targetFiles);
  if (copied.copied !== manifest.files.copied) {
    throw new AdminError(`The backup lists ${manifest.files.copied} files but ${copied.copied} were restored`);
  }
  return manifest;
}

async function restoreSqlite(source: string, dataDir: string, manifest: BackupManifest): Promise<void> {
  const target = path.join(dataDir, SQLITE_FILE);
  if (existsSync(target)) {
    throw new AdminError(`${target} exists: stop the server and move the old data aside first (a restore never writes over a database)`);
  }
  if (!existsSync(source)) throw new AdminError(`The backup has no ${SQLITE_FILE}`);
  const check = new Database(source, { readonly: true, fileMustExist: true });
  try {
    const integrity = check.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new AdminError(`The backup's database is damaged: ${String(integrity)}`);
    const messages = (check.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n;
    if (messages !== manifest.counts.messages) {
      throw new AdminError(`The backup's database has ${messages} messages, its manifest says ${manifest.counts.messages}`);
    }
  } finally {
    check.close();
  }
  // Leftovers of a database that was removed (its WAL) must not be replayed into the restored one.
  for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true });
  copyFileSync(source, target);
}

async function restorePostgres(dump: string, url: string): Promise<void> {
  if (!existsSync(dump)) throw new AdminError(`The backup has no ${POSTGRES_DUMP}. By hand: ${POSTGRES_BY_HAND}`);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query(`SELECT to_regclass('schema_version') AS t`);
    if ((found.rows[0] as { t: string | null }).t !== null) {
      throw new AdminError('The PostgreSQL database is not empty (it has the server\'s tables): restore into an empty one');
    }
  } finally {
    await client.end();
  }
  const restored = spawnSync('pg_restore', restoreArguments(url, dump), { encoding: 'utf8' });
  if (restored.error && (restored.error as { code?: string }).code === 'ENOENT') {
    throw new AdminError(`pg_restore is not on this machine. By hand: ${POSTGRES_BY_HAND}`);
  }
  if (restored.status !== 0) throw new AdminError(`pg_restore failed: ${(restored.stderr || '').trim().split('\n')[0]}`);
}
