import type Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { DatabaseTooNewError, openDatabase } from './database';
import { POSTGRES_MIGRATIONS } from './postgresSchema';
import { MIGRATIONS } from './schema';
import { Store } from './store';

/** Where the server keeps its data: SQLite in the data directory, or PostgreSQL when DATABASE_URL is set. */
export interface StoreLocation {
  dataDir: string;
  databaseUrl?: string | undefined;
}

/**
 * Connections per node to PostgreSQL: the transactions and statements a node runs at once. A chat's sends
 * hold at most one each (ChatTurns), so a node with sends to many busy chats still has connections left for
 * sign-ins and reads; three nodes use 60 of PostgreSQL's default 100.
 */
const POOL_SIZE = 20;

/**
 * Opens (creating and migrating when needed) the server's store. `created` says the database was new, so the
 * caller can seed it. `migrations` is this build's list for the chosen store; tests pass a shorter one to play
 * an older build.
 */
export async function openStore(
  location: StoreLocation,
  migrations?: readonly string[],
): Promise<{ store: Store; created: boolean }> {
  if (location.databaseUrl) return openPostgres(location.databaseUrl, migrations ?? POSTGRES_MIGRATIONS);
  const { db, created } = openDatabase(location.dataDir, migrations ?? MIGRATIONS);
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: cachingStatements(db) }) });
  return { store: new Store('sqlite', kysely, db.name), created };
}

/** Statements kept compiled; past it the cache starts again (a bound on memory, never reached in use). */
const STATEMENT_CACHE_MAX = 500;
/** A statement with more parameters is an IN list of some length: compiled for its one use, not kept. */
const CACHED_PARAMETERS_MAX = 16;

/**
 * better-sqlite3 compiles a statement on every `prepare`, and Kysely prepares each query it runs: the server
 * runs a few dozen distinct statements, so each is compiled once and kept. IN lists make a statement per
 * length; those are not kept (a list of up to 5,000 ids would otherwise keep a statement for every length).
 */
function cachingStatements(db: Database.Database): Database.Database {
  const statements = new Map<string, Database.Statement>();
  const prepare = db.prepare.bind(db);
  return new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'prepare') return Reflect.get(target, key, receiver) as unknown;
      return (source: string) => {
        const cached = statements.get(source);
        if (cached) return cached;
        const statement = prepare(source);
        if (parameterCount(source) <= CACHED_PARAMETERS_MAX) {
          if (statements.size >= STATEMENT_CACHE_MAX) statements.clear();
          statements.set(source, statement);
        }
        return statement;
      };
    },
  });
}

function parameterCount(source: string): number {
  let count = 0;
  for (let i = source.indexOf('?'); i !== -1; i = source.indexOf('?', i + 1)) count++;
  return count;
}

// BIGINT (ids, times, counts) and NUMERIC (sums) as numbers, like SQLite gives them: every value the server
// keeps is below 2^53.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 || oid === pg.types.builtins.NUMERIC
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** A lock number every node of a cluster agrees on: one node migrates while the others wait. */
const MIGRATION_LOCK = 0x6d657373; // "mess"

async function openPostgres(url: string, migrations: readonly string[]): Promise<{ store: Store; created: boolean }> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, types });
  // An idle connection the server dropped (a restart) emits here; the pool replaces it on the next query.
  pool.on('error', () => undefined);
  // One in use emits on itself too, besides failing its query (which the request answers as 503): unheard,
  // that event would end the process.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  let created = false;
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
      const row = (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows[0];
      const version = row?.version ?? 0;
      if (version > migrations.length) throw new DatabaseTooNewError(version, migrations.length, redact(url));
      created = version === 0;
      if (version < migrations.length) {
        await client.query('BEGIN');
        try {
          for (let i = version; i < migrations.length; i++) await client.query(migrations[i] as string);
          await client.query('DELETE FROM schema_version');
          await client.query('INSERT INTO schema_version (version) VALUES ($1)', [migrations.length]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } catch (error) {
    client.release();
    await pool.end();
    throw error;
  }
  client.release();
  const kysely = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  return { store: new Store('postgres', kysely, redact(url)), created };
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}
