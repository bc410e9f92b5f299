import path from 'node:path';
import { parseArgs } from 'node:util';
import { normalizePhone } from '../domain/countries';

export const USAGE = `Usage: npm run seed -- [options]

Creates the database if needed (PostgreSQL when $DATABASE_URL is set, else SQLite in the data
directory), seeds the demo world when the database is new, then adds generated history for benchmarks.
Run it while the server is stopped, or reload the client afterwards: the server sends no live events
for rows written here.

Options:
  --data-dir DIR          data directory (default: $DATA_DIR, else ./data); unused with $DATABASE_URL
  --group-messages N      add one group "Big group" of the user and a few demo users with N messages
                          (e.g. 100000)
  --conversations N       add N one-to-one chats for the user, each with a new generated person
  --user PHONE            whose history to generate, in international form (default: the first demo
                          user, +46701234561)
  -h, --help              print this help

Example:
  npm run seed -- --group-messages 100000 --conversations 500
`;

/** A mistake in the command line: the CLI prints it with a pointer to --help and exits 2. */
export class UsageError extends Error {}

export interface SeedOptions {
  dataDir: string;
  groupMessages: number;
  conversations: number;
  /** Canonical +E.164 phone, or undefined for the first demo user. */
  userPhone: string | undefined;
}

const LIMIT = 10_000_000;

function count(raw: string | undefined, name: string): number {
  if (raw === undefined) return 0;
  if (!/^\d+$/.test(raw) || Number(raw) > LIMIT) {
    throw new UsageError(`--${name} must be a whole number from 0 to ${LIMIT}, got "${raw}"`);
  }
  return Number(raw);
}

export function parseSeedArgs(argv: string[], env: NodeJS.ProcessEnv): { help: true } | { help: false; options: SeedOptions } {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        'data-dir': { type: 'string' },
        'group-messages': { type: 'string' },
        conversations: { type: 'string' },
        user: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  const dataDir = values['data-dir'] ?? (env.DATA_DIR || 'data');
  if (dataDir.trim() === '') throw new UsageError('--data-dir must not be empty');
  let userPhone: string | undefined;
  if (values.user !== undefined) {
    const normalized = normalizePhone(values.user);
    if (!normalized) throw new UsageError(`--user "${values.user}" is not a Swedish or Indonesian mobile number`);
    userPhone = normalized.phone;
  }
  return {
    help: false,
    options: {
      dataDir: path.resolve(dataDir),
      groupMessages: count(values['group-messages'], 'group-messages'),
      conversations: count(values.conversations, 'conversations'),
      userPhone,
    },
  };
}
