import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/** How many migrations the store has run, read without changing it (0: no database yet). */
export async function schemaVersionOf(location: { dataDir: string; databaseUrl: string | undefined }): Promise<number> {
  if (!location.databaseUrl) {
    const file = path.join(location.dataDir, 'messenger.db');
    if (!existsSync(file)) return 0;
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return db.pragma('user_version', { simple: true }) as number;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: location.databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ t: string | null }>(`SELECT to_regclass('schema_version') AS t`);
    if (found.rows[0]?.t === null) return 0;
    return (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows[0]?.version ?? 0;
  } finally {
    await client.end();
  }
}
