import { pathToFileURL } from 'node:url';
import { type AdminIo, EXIT_OK, EXIT_USAGE, exitCodeOf, wantsHelp } from './command';
import { DEMO_HELP, demoCommand } from './demo';
import { USERS_HELP, usersCommand } from './users';

export const ADMIN_HELP = `npm run admin -- <group> <command> [arguments]   (docs/server.md "Admin tool")

  users find <number>           Shows a user
  users deactivate <number>     Refuses their sign-ins and ends their sessions
  users reactivate <number>     Lets them sign in again
  users end-sessions <number>   Ends their sessions
  demo remove [--yes]           Removes the demo world (without --yes: says what it would remove)

Every command takes --help. It works on the server's store, from the same environment as npm start:
DATA_DIR (SQLite, data/messenger.db) or DATABASE_URL (PostgreSQL), and may run while the server runs.
Exit codes: 0 done, 1 failed (one line says why), 2 wrong usage.`;

const GROUPS: Record<string, { help: string; run: (args: readonly string[], io: AdminIo) => Promise<void> }> = {
  users: { help: USERS_HELP, run: usersCommand },
  demo: { help: DEMO_HELP, run: demoCommand },
};

/** The operator's command line (`npm run admin -- …`): answers the exit code. */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  const [groupName, ...args] = argv;
  if (!groupName || groupName === '--help' || groupName === '-h' || groupName === 'help') {
    (groupName ? io.out : io.err)(ADMIN_HELP);
    return groupName ? EXIT_OK : EXIT_USAGE;
  }
  const group = GROUPS[groupName];
  if (!group) {
    io.err(`Unknown command "${groupName}"`);
    io.err(ADMIN_HELP);
    return EXIT_USAGE;
  }
  if (wantsHelp(args)) {
    io.out(group.help);
    return EXIT_OK;
  }
  return exitCodeOf(io, group.help, () => group.run(args, io));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: AdminIo = { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) };
  void runAdmin(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
