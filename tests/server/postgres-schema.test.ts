import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresProcess } from '../../scripts/cluster/postgres';
import { openDatabase } from '../../server/db/database';
import { POSTGRES_MIGRATIONS } from '../../server/db/postgresSchema';

/**
 * Issue 21: the PostgreSQL schema (server/db/postgresSchema.ts) applies on a real PostgreSQL (Debian's) and
 * describes the same tables, columns, nullability and indexes as SQLite's after all of its migrations, so a
 * migration added to one list and not the other fails here.
 */

interface Column {
  table: string;
  column: string;
  notNull: boolean;
}

let postgres: PostgresProcess;
let client: pg.Client;
let dir: string;

beforeAll(async () => {
  postgres = await PostgresProcess.start();
  client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query('BEGIN');
  for (const migration of POSTGRES_MIGRATIONS) await client.query(migration);
  await client.query('COMMIT');
  dir = mkdtempSync(path.join(tmpdir(), 'messenger-schema-'));
}, 60_000);

afterAll(async () => {
  await client?.end();
  await postgres?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function sqliteShape(): { columns: Column[]; indexes: string[] } {
  const { db } = openDatabase(dir);
  try {
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((t) => t.name);
    const columns = tables.flatMap((table) =>
      (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; notnull: number; pk: number }[]).map((c) => ({
        table,
        column: c.name,
        // A primary key column is NOT NULL in PostgreSQL whatever it says; SQLite's rowid keys are too.
        notNull: c.notnull === 1 || c.pk > 0,
      })),
    );
    const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex%'").all() as { name: string }[]).map(
      (i) => i.name,
    );
    return { columns, indexes };
  } finally {
    db.close();
  }
}

async function postgresShape(): Promise<{ columns: Column[]; indexes: string[] }> {
  const columns = (
    await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
      "SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public'",
    )
  ).rows.map((r) => ({ table: r.table_name, column: r.column_name, notNull: r.is_nullable === 'NO' }));
  // Primary keys and UNIQUE columns make indexes of their own, as SQLite's autoindexes: not compared.
  const indexes = (
    await client.query<{ indexname: string }>(
      "SELECT indexname FROM pg_indexes WHERE schemaname = 'public' AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'",
    )
  ).rows.map((r) => r.indexname);
  return { columns, indexes };
}

const sorted = <T>(items: T[], key: (item: T) => string) => [...items].sort((a, b) => key(a).localeCompare(key(b)));

describe('the PostgreSQL schema', () => {
  it('has the tables, columns, nullability and indexes of SQLite’s', async () => {
    const lite = sqliteShape();
    const post = await postgresShape();
    const key = (c: Column) => `${c.table}.${c.column}`;
    expect(sorted(post.columns, key)).toEqual(sorted(lite.columns, key));
    expect([...post.indexes].sort()).toEqual([...lite.indexes].sort());
  });

  it('gives the database an epoch, and ids that also take explicit values', async () => {
    const epoch = await client.query<{ value: string }>("SELECT value FROM server_meta WHERE key = 'epoch'");
    expect(epoch.rows[0]?.value).toMatch(/^[0-9a-f]{16}$/);
    await client.query("INSERT INTO event_payloads (id, data) VALUES (41, '{}')");
    const next = await client.query<{ id: string }>("INSERT INTO event_payloads (data) VALUES ('{}') RETURNING id");
    expect(Number(next.rows[0]?.id)).toBeGreaterThan(0);
  });

  it('keeps no foreign key from events to their payloads (a check per stored row; migration 6)', async () => {
    const keys = await client.query<{ conname: string }>(
      "SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = 'events'::regclass",
    );
    expect(keys.rows).toEqual([]);
    // The key it had: the migration dropped this one, not a name it guessed.
    const before = new pg.Client({ connectionString: postgres.url });
    await before.connect();
    try {
      await before.query('CREATE SCHEMA older; SET search_path TO older');
      // The migrations before 6 (later ones are appended after it).
      for (const migration of POSTGRES_MIGRATIONS.slice(0, 5)) await before.query(migration);
      const old = await before.query<{ conname: string }>(
        "SELECT conname FROM pg_constraint WHERE contype = 'f' AND conrelid = 'older.events'::regclass",
      );
      expect(old.rows.map((r) => r.conname)).toEqual(['events_payload_id_fkey']);
    } finally {
      await before.end();
    }
  });
});

