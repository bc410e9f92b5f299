import { pathToFileURL } from 'node:url';
import { type AdminIo, EXIT_OK, EXIT_USAGE, UsageError, exitCodeOf, wantsHelp } from '../admin/command';
import { backup } from './backup';
import { restore } from './restore';

export const BACKUP_HELP = `npm run backup -- <dir>   (docs/server.md "Backups")

Copies the server's data, while it runs, into <dir>/<time>/: the database (SQLite: messenger.db, a
consistent copy; with DATABASE_URL: postgres.dump, by pg_dump when it is on the machine), the uploaded
files (files/) and manifest.json (schema version, counts). Reads DATA_DIR and DATABASE_URL as npm start does.`;

export const RESTORE_HELP = `npm run restore -- <backup folder>   (docs/server.md "Backups")

Stop the server first. Restores a backup into an empty DATA_DIR (or, with DATABASE_URL, an empty
PostgreSQL database) and checks it against its manifest; it refuses to write over existing data.
Then start the server: it migrates the restored database if the backup is of an older build.`;

export async function runBackup(argv: readonly string[], io: AdminIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.out(BACKUP_HELP);
    return EXIT_OK;
  }
  return exitCodeOf(io, BACKUP_HELP, async () => {
    if (argv.length !== 1) throw new UsageError('backup takes one folder');
    const { folder, manifest } = await backup(argv[0] as string, io.env);
    const { counts, files } = manifest;
    io.out(`Backed up to ${folder}: schema ${manifest.schemaVersion}, ${counts.users} users, ${counts.messages} messages, ${files.copied} files (${files.bytes} bytes)`);
    if (manifest.postgresDump && 'skipped' in manifest.postgresDump) io.err(`No database dump: ${manifest.postgresDump.skipped}`);
    if (files.missing.length) io.err(`${files.missing.length} files the database names were not there to copy (deleted meanwhile?)`);
  });
}

export async function runRestore(argv: readonly string[], io: AdminIo): Promise<number> {
  if (wantsHelp(argv)) {
    io.out(RESTORE_HELP);
    return EXIT_OK;
  }
  return exitCodeOf(io, RESTORE_HELP, async () => {
    if (argv.length !== 1) throw new UsageError('restore takes one backup folder');
    const manifest = await restore(argv[0] as string, io.env);
    io.out(`Restored the backup of ${manifest.createdAt}: ${manifest.counts.users} users, ${manifest.counts.messages} messages, ${manifest.files.copied} files. Start the server now.`);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: AdminIo = { env: process.env, out: (line) => console.log(line), err: (line) => console.error(line) };
  const [command, ...args] = process.argv.slice(2);
  const run = command === 'restore' ? runRestore : command === 'backup' ? runBackup : null;
  if (!run) {
    console.error('usage: tsx server/backup/cli.ts backup|restore …');
    process.exitCode = EXIT_USAGE;
  } else {
    void run(args, io).then((code) => {
      process.exitCode = code;
    });
  }
}
