import { createHash } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/**
 * Under the `server-postgres` project, a DATABASE_URL for one test server: a schema of its own in the run's
 * PostgreSQL, named after the server's data directory, so a server restarted on the same directory finds
 * its data again. Elsewhere undefined: the server uses SQLite in its data directory.
 */
export async function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  // Outside Vitest (`npm run bench` starts test servers too) there is no run to ask: SQLite.
  const base = process.env.VITEST ? inject('postgresUrl') : undefined;
  if (!base) return undefined;
  const schema = `t_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}
