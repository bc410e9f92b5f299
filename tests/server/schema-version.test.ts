import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DatabaseTooNewError, openDatabase } from '../../server/db/database';
import { openStore } from '../../server/db/open';
import { POSTGRES_MIGRATIONS } from '../../server/db/postgresSchema';
import { MIGRATIONS } from '../../server/db/schema';
import { sql } from '../../server/db/store';
import { testDatabaseUrl } from '../support/postgresSchema';

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'schema-version-'));
  dirs.push(dir);
  return dir;
}

/** A newer build: this build's migrations and one more, which fails if it ever runs twice. */
const NEWER = [...MIGRATIONS, 'CREATE TABLE added_by_newer_build (id INTEGER PRIMARY KEY)'];

function fingerprint(dir: string): string {
  const hash = createHash('sha256');
  for (const name of ['messenger.db', 'messenger.db-wal']) {
    const file = path.join(dir, name);
    hash.update(existsSync(file) ? readFileSync(file) : Buffer.alloc(0));
  }
  return hash.digest('hex');
}

describe('schema version', () => {
  it('refuses a database a newer build migrated, writes nothing, and the newer build starts on it again', () => {
    const dir = tempDir();
    openDatabase(dir, NEWER).db.close();
    const before = fingerprint(dir);

    let refusal: unknown;
    try {
      openDatabase(dir).db.close();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DatabaseTooNewError);
    expect((refusal as Error).message).toContain(`schema version ${NEWER.length}`);
    expect((refusal as Error).message).toContain(`knows only ${MIGRATIONS.length} migrations`);
    expect(fingerprint(dir)).toBe(before);

    // The newer build's extra migration would throw ("table already exists") if it ran again.
    const again = openDatabase(dir, NEWER);
    expect(again.created).toBe(false);
    expect(again.db.pragma('user_version', { simple: true })).toBe(NEWER.length);
    again.db.close();
  });

  it('npm start exits with a message naming both versions', () => {
    const dir = tempDir();
    openDatabase(dir, NEWER).db.close();
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dir, SKIP_CLIENT_BUILD: '1', SEED_DEMO: '0', NODE_ENV: 'test' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`schema version ${NEWER.length}`);
    expect(run.stderr).toContain(`${MIGRATIONS.length} migrations`);
    expect(run.stdout).not.toContain('running at');
  });
});

/**
 * The same on PostgreSQL (DATABASE_URL), in the `server-postgres` project: its migrations are counted in
 * `schema_version`, and a newer build's database is refused before anything is written.
 */
describe.skipIf(!inject('postgresUrl'))('schema version on PostgreSQL', () => {
  const NEWER_PG = [...POSTGRES_MIGRATIONS, 'CREATE TABLE added_by_newer_build (id INTEGER PRIMARY KEY)'];

  it('refuses a database a newer build migrated, writes nothing, and the newer build starts on it again', async () => {
    const location = { dataDir: tempDir(), databaseUrl: await testDatabaseUrl(`schema-version-${Date.now()}`) };
    await (await openStore(location, NEWER_PG)).store.close();
    const tables = async () => {
      const { store } = await openStore(location, NEWER_PG);
      try {
        return await store.all<{ table_name: string }>(
          sql`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
        );
      } finally {
        await store.close();
      }
    };
    const before = await tables();

    const refusal = await openStore(location).then(
      async ({ store }) => {
        await store.close();
        return undefined;
      },
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DatabaseTooNewError);
    expect((refusal as Error).message).toContain(`schema version ${NEWER_PG.length}`);
    expect((refusal as Error).message).toContain(`knows only ${POSTGRES_MIGRATIONS.length} migrations`);
    expect((refusal as Error).message).not.toContain('password');

    // Nothing written; and the newer build's extra migration would throw ("already exists") if it ran again.
    expect(await tables()).toEqual(before);
    const again = await openStore(location, NEWER_PG);
    expect(again.created).toBe(false);
    expect(await again.store.get(sql`SELECT version FROM schema_version`)).toEqual({ version: NEWER_PG.length });
    await again.store.close();
  });
});
