import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AdminIo, EXIT_ERROR, EXIT_OK, EXIT_USAGE } from '../../server/admin/command';
import { runMigrate, schemaVersionOf } from '../../server/admin/migrate';
import { openStore } from '../../server/db/open';
import { POSTGRES_MIGRATIONS } from '../../server/db/postgresSchema';
import { MIGRATIONS } from '../../server/db/schema';
import { testDatabaseUrl } from '../support/postgresSchema';

/** docs/server.md "Upgrading": `npm run migrate` migrates the store and exits, and says what it did. */

const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function location() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-migrate-'));
  dirs.push(dataDir);
  const databaseUrl = await testDatabaseUrl(dataDir);
  return { dataDir, databaseUrl };
}

async function migrate(where: { dataDir: string; databaseUrl: string | undefined }, argv: string[] = [], migrations?: readonly string[]) {
  const lines: string[] = [];
  const io: AdminIo = {
    env: { DATA_DIR: where.dataDir, ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl } : {}) },
    out: (l) => lines.push(l),
    err: (l) => lines.push(l),
  };
  const code = await runMigrate(argv, io, migrations);
  return { code, text: lines.join('\n') };
}

describe('npm run migrate', () => {
  it('migrates a database of the previous build to this one, says so, and has nothing to do the second time', async () => {
    const where = await location();
    const current = where.databaseUrl ? POSTGRES_MIGRATIONS : MIGRATIONS;
    // The build before: one migration fewer.
    await (await openStore(where, current.slice(0, -1))).store.close();
    expect(await schemaVersionOf(where)).toBe(current.length - 1);

    const first = await migrate(where);
    expect(first.code).toBe(EXIT_OK);
    expect(first.text).toContain(`migrated from schema version ${current.length - 1} to ${current.length} (1 migrations)`);
    expect(await schemaVersionOf(where)).toBe(current.length);
    const again = await migrate(where);
    expect(again.text).toContain(`is at schema version ${current.length}, this build's: nothing to do`);
  });

  it('creates an empty database, and refuses one a newer build migrated, unchanged, with exit code 1', async () => {
    const where = await location();
    const current = where.databaseUrl ? POSTGRES_MIGRATIONS : MIGRATIONS;
    const created = await migrate(where);
    expect(created.text).toContain(`created at schema version ${current.length}, empty`);
    const newer = [...current, 'CREATE TABLE added_by_newer_build (id INTEGER PRIMARY KEY)'];
    expect((await migrate(where, [], newer)).code).toBe(EXIT_OK);
    const refused = await migrate(where);
    expect(refused.code).toBe(EXIT_ERROR);
    expect(refused.text).toContain(`schema version ${newer.length}, but this build of the server knows only ${current.length}`);
    expect(await schemaVersionOf(where)).toBe(newer.length);
    expect((await migrate(where, ['now'])).code).toBe(EXIT_USAGE);
  });

  it('is npm run migrate', () => {
    const help = spawnSync('npm', ['run', '--silent', 'migrate', '--', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Brings the server\'s database');
  });
});
