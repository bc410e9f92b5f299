import { ConfigError, configFromEnv } from '../config';
import { openStore } from '../db/open';
import type { Store } from '../db/store';
import { schemaVersionOf } from './schemaVersion';

/** Where an admin command writes, and the environment it reads (DATA_DIR, DATABASE_URL, like the server). */
export interface AdminIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Exit codes of the operator's commands (docs/server.md "Admin tool"): 0 done, 1 failed, 2 wrong usage. */
export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_USAGE = 2;

/** The command line was wrong: its message, then the command's help, and exit code 2. */
export class UsageError extends Error {}

/** The command could not be done: one clear line, and exit code 1. */
export class AdminError extends Error {}

/** Where the server keeps its data, read from the same environment as `npm start` reads. */
export function storeLocation(env: NodeJS.ProcessEnv): { dataDir: string; databaseUrl: string | undefined } {
  // Only the two variables the store needs: a PIN_WEBHOOK_URL missing under NODE_ENV=production must not
  // stop an operator's command.
  try {
    const config = configFromEnv({ DATA_DIR: env.DATA_DIR, DATABASE_URL: env.DATABASE_URL });
    return { dataDir: config.dataDir, databaseUrl: config.databaseUrl };
  } catch (error) {
    if (error instanceof ConfigError) throw new AdminError(error.message);
    throw error;
  }
}

/**
 * Opens the server's store (migrating it like a starting node would, so the command's statements meet this
 * build's schema), runs `fn` and closes it.
 */
export async function withStore<T>(env: NodeJS.ProcessEnv, fn: (db: Store) => Promise<T>): Promise<T> {
  const location = storeLocation(env);
  // A mistyped DATA_DIR or DATABASE_URL must not get a new, empty database.
  if ((await schemaVersionOf(location)) === 0) {
    throw new AdminError(
      location.databaseUrl
        ? 'The PostgreSQL database of DATABASE_URL has no messenger tables (is DATABASE_URL right?)'
        : `There is no database in ${location.dataDir} (is DATA_DIR right?)`,
    );
  }
  const { store } = await openStore(location);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

/** Runs a command's body and turns its failures into the exit codes above. */
export async function exitCodeOf(io: AdminIo, help: string, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return EXIT_OK;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(error.message);
      io.err(help);
      return EXIT_USAGE;
    }
    io.err(error instanceof Error ? error.message : String(error));
    return EXIT_ERROR;
  }
}

/** Whether the arguments ask for help. */
export const wantsHelp = (args: readonly string[]) => args.includes('--help') || args.includes('-h');
