import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, openDatabase } from '../../server/db/database';
import { MIGRATIONS } from '../../server/db/schema';

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
