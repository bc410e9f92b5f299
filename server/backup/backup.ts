import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { AdminError, storeLocation } from '../admin/command';
import { copyNewFiles } from './files';
import { type BackupManifest, COUNT_TABLES, FILES_DIR, MANIFEST, POSTGRES_DUMP, SQLITE_FILE } from './manifest';
import { dumpArguments } from './postgres';

type Counts = BackupManifest['counts'];

/** `2026-12-08T01-30-00-123Z`: a backup's folder name, sortable, without characters a file system minds. */
export const backupName = (at: Date) => at.toISOString().replace(/[:.]/g, '-');

/**
 * Backs up the server's data while it runs (docs/server.md "Backups") into `<dir>/<time>/`: the database
 * (SQLite: `VACUUM INTO`, one read transaction, so a consistent copy while the server writes; never a copy
 * of the file, which in WAL mode misses what is still in the WAL; PostgreSQL: pg_dump, when it is on the
 * machine), the uploaded files, and `manifest.json`. Answers the backup's folder and manifest.
 */
export async function backup(
  dir: string,
  env: NodeJS.ProcessEnv,
  now: Date = new Date(),
): Promise<{ folder: string; manifest: BackupManifest }> {
  const location = storeLocation(env);
  const folder = path.resolve(dir, backupName(now));
  if (existsSync(folder)) throw new AdminError(`${folder} exists already: a backup is never written over another`);
  mkdirSync(folder, { recursive: true });
  try {
    const sourceFiles = path.join(location.dataDir, FILES_DIR);
    const targetFiles = path.join(folder, FILES_DIR);
    // Files first, then the database, then the files again: every file the copied database names was either
    // there before it (first pass) or uploaded before it was copied (second pass).
    copyNewFiles(sourceFiles, targetFiles);
    const database = location.databaseUrl
      ? await backupPostgres(location.databaseUrl, folder)
      : backupSqlite(path.join(location.dataDir, SQLITE_FILE), path.join(folder, SQLITE_FILE));
    const copied = copyNewFiles(sourceFiles, targetFiles);
    const missing = database.fileNames.filter((name) => !existsSync(path.join(targetFiles, name)));
    const manifest: BackupManifest = {
      format: 1,
      createdAt: now.toISOString(),
      store: location.databaseUrl ? 'postgres' : 'sqlite',
      schemaVersion: database.schemaVersion,
      counts: database.counts,
      files: { ...copied, missing },
      ...(database.dump ? { postgresDump: database.dump } : {}),
    };
    writeFileSync(path.join(folder, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    return { folder, manifest };
  } catch (error) {
    // A backup that failed half way must not look like one.
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

interface DatabaseCopy {
  schemaVersion: number;
  counts: Counts;
  fileNames: string[];
  dump?: BackupManifest['postgresDump'];
}

function backupSqlite(source: string, target: string): DatabaseCopy {
  if (!existsSync(source)) throw new AdminError(`There is no database at ${source} (is DATA_DIR right?)`);
  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare('VACUUM INTO ?').run(target);
  } finally {
    db.close();
  }
  // Counted in the copy: what a restore of it must find.
  const copy = new Database(target, { readonly: true });
  try {
    const counts = Object.fromEntries(
      COUNT_TABLES.map((table) => [table, (copy.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n]),
    ) as Counts;
    const fileNames = (copy.prepare('SELECT name FROM files').all() as { name: string }[]).map((r) => r.name);
    return { schemaVersion: copy.pragma('user_version', { simple: true }) as number, counts, fileNames };
  } finally {
    copy.close();
  }
}

async function backupPostgres(url: string, folder: string): Promise<DatabaseCopy> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // One snapshot for the counts, the file names and pg_dump (`--snapshot`): the manifest says exactly what
    // the dump holds. The transaction stays open until pg_dump is done.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id')).rows[0]?.id as string;
    const version = (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows[0]?.version ?? 0;
    const counts = {} as Record<string, number>;
    for (const table of COUNT_TABLES) {
      counts[table] = Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]?.n ?? 0);
    }
    const fileNames = (await client.query<{ name: string }>('SELECT name FROM files')).rows.map((r) => r.name);
    const copy: DatabaseCopy = { schemaVersion: version, counts: counts as Counts, fileNames };
    const file = path.join(folder, POSTGRES_DUMP);
    const dumped = await run('pg_dump', [`--snapshot=${snapshot}`, ...dumpArguments(url, file)]);
    if (dumped.missing) {
      copy.dump = { skipped: 'pg_dump is not on this machine: run it where it is (docs/server.md "Backups")' };
    } else if (dumped.code !== 0) {
      throw new AdminError(`pg_dump failed: ${dumped.stderr.trim().split('\n')[0]}`);
    } else {
      copy.dump = { file: POSTGRES_DUMP };
    }
    await client.query('COMMIT');
    return copy;
  } finally {
    await client.end();
  }
}

/** Runs a program to its end without blocking (the snapshot's connection must stay answered). */
export function run(program: string, args: string[]): Promise<{ code: number | null; stderr: string; missing: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error: NodeJS.ErrnoException) => resolve({ code: null, stderr: error.message, missing: error.code === 'ENOENT' }));
    child.on('close', (code) => resolve({ code, stderr, missing: false }));
  });
}
