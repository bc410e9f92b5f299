import { pathToFileURL } from 'node:url';
import { openStore } from '../db/open';
import { POSTGRES_MIGRATIONS } from '../db/postgresSchema';
import { MIGRATIONS } from '../db/schema';
import { type AdminIo, EXIT_OK, exitCodeOf, storeLocation, UsageError, wantsHelp } from './command';
import { schemaVersionOf } from './schemaVersion';

export { schemaVersionOf } from './schemaVersion';

export const MIGRATE_HELP = `npm run migrate   (docs/server.md "Upgrading")

Brings the server's database (DATA_DIR's SQLite, or DATABASE_URL's PostgreSQL) to this build's schema,
says what it did, and exits; it seeds nothing and serves nothing. Back up first (npm run backup).
A database of a newer build is refused, unchanged.`;

/**
 * `npm run migrate`: applies this build's pending migrations (the same code a starting node runs, under the
 * same lock on PostgreSQL) and exits. `migrations` lets tests play another build.
 */
export async function runMigrate(argv: readonly string[], io: AdminIo, migrations?: readonly string[]): Promise<number> {
  if (wantsHelp(argv)) {
    io.out(MIGRATE_HELP);
    return EXIT_OK;
  }
  return exitCodeOf(io, MIGRATE_HELP, async () => {
    if (argv.length) throw new UsageError(`migrate takes no arguments (got ${argv.join(' ')})`);
    const location = storeLocation(io.env);
    const list = migrations ?? (location.databaseUrl ? POSTGRES_MIGRATIONS : MIGRATIONS);
    const before = await schemaVersionOf(location);
    const { store } = await openStore(location, list);
    const where = store.description;
    await store.close();
    if (before === list.length) io.out(`${where} is at schema version ${before}, this build's: nothing to do.`);
    else if (before === 0) io.out(`${where}: created at schema version ${list.length}, empty (npm start seeds the demo world only into a database it creates).`);
    else io.out(`${where}: migrated from schema version ${before} to ${list.length} (${list.length - before} migrations).`);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: AdminIo = { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) };
  void runMigrate(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
