/**
 * The schema a DATABASE_URL keeps the server's tables in, when it names one (`?options=-c search_path=s`, as
 * the test servers do, one schema each in one database): pg_dump then dumps that schema alone.
 */
export function schemaOf(url: string): string | undefined {
  let options: string | null;
  try {
    options = new URL(url).searchParams.get('options');
  } catch {
    return undefined;
  }
  const match = /search_path=([A-Za-z_][A-Za-z0-9_]*)/.exec(options ?? '');
  return match?.[1];
}

/**
 * The URL as libpq reads it: its query percent-encoded. WHATWG URLs (and node-postgres) write and read a
 * space as `+`, which libpq (pg_dump, pg_restore) takes literally (`-c+search_path=…`).
 */
export function libpqUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const query = [...parsed.searchParams].map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  parsed.search = '';
  return query ? `${parsed.toString()}?${query}` : parsed.toString();
}

/** pg_dump's arguments for a backup: custom format (pg_restore reads it), without owners or privileges. */
export function dumpArguments(url: string, file: string): string[] {
  const schema = schemaOf(url);
  return ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, ...(schema ? [`--schema=${schema}`] : []), `--dbname=${libpqUrl(url)}`];
}

/** pg_restore's arguments: into an empty database (or schema), stopping at the first error. */
export function restoreArguments(url: string, file: string): string[] {
  return ['--no-owner', '--no-privileges', '--exit-on-error', `--dbname=${libpqUrl(url)}`, file];
}

/** The commands docs/server.md "Backups" gives, for a machine without the PostgreSQL client tools. */
export const POSTGRES_BY_HAND =
  'pg_dump --format=custom --no-owner --no-privileges --file=postgres.dump "$DATABASE_URL"; ' +
  'restore into an empty database: pg_restore --no-owner --no-privileges --exit-on-error --dbname="$DATABASE_URL" postgres.dump';
