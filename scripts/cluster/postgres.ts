import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './processes';

/** Debian's PostgreSQL binaries (the `postgresql` package), newest major first. */
export function postgresBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const major of majors) {
    const dir = path.join(root, major, 'bin');
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  }
  return undefined;
}

/**
 * A throwaway PostgreSQL server (issue 21), for the cluster command and the tests: a new cluster in a
 * temporary directory on a free loopback port, trust authentication for the `messenger` role, and one
 * database `messenger`. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user.
 */
export class PostgresProcess {
  private child: ChildProcess | undefined;

  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
    private readonly settings: readonly string[],
    private readonly temporary: boolean,
  ) {}

  get url(): string {
    return `postgres://messenger@127.0.0.1:${this.port}/messenger`;
  }

  /**
   * A new PostgreSQL, or the one kept in `dir` when it holds one (`npm run cluster` keeps its data between
   * runs; without `dir` a temporary directory is removed by stop()). `throwaway`: the tests' setting, no fsync
   * and commits not waited on, so a crash may lose the last commits (the server tests never crash it).
   */
  static async start(options: { throwaway?: boolean; dir?: string } = {}): Promise<PostgresProcess> {
    const bin = postgresBinDir();
    if (!bin) throw new Error('no PostgreSQL: install Debian’s postgresql');
    const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'messenger-postgres-'));
    mkdirSync(dir, { recursive: true });
    const settings = options.throwaway ? ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'] : [];
    const server = new PostgresProcess(bin, dir, await freePort(), settings.flatMap((s) => ['-c', s]), options.dir === undefined);
    if (process.getuid?.() === 0) {
      chownSync(dir, uidOf('postgres'), gidOf('postgres'));
      // The `postgres` user must pass through the directory it is in (a data directory made by mkdtemp is 0700).
      const parent = path.dirname(dir);
      const mode = statSync(parent).mode;
      if ((mode & 0o001) === 0) chmodSync(parent, (mode & 0o7777) | 0o001);
    }
    const existing = existsSync(path.join(dir, 'data', 'PG_VERSION'));
    if (!existing) {
      server.run('initdb', ['-D', path.join(dir, 'data'), '-U', 'messenger', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    }
    await server.restart();
    if (!existing) {
      const admin = new pg.Client({ connectionString: `postgres://messenger@127.0.0.1:${server.port}/postgres` });
      await admin.connect();
      await admin.query('CREATE DATABASE messenger');
      await admin.end();
    }
    return server;
  }

  /** Starts the server (again) on the same port and data; resolves once it accepts connections. */
  async restart(): Promise<void> {
    const args = ['-D', path.join(this.dir, 'data'), '-p', String(this.port), '-k', this.dir, '-c', 'listen_addresses=127.0.0.1', ...this.settings];
    this.child = this.spawnAs(path.join(this.bin, 'postgres'), args);
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`postgres exited with ${this.child.exitCode}`);
      const client = new pg.Client({ connectionString: `postgres://messenger@127.0.0.1:${this.port}/postgres` });
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw new Error('postgres did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  /** SIGKILL: a crash. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await exited;
  }

  /** PostgreSQL's fast shutdown (SIGINT: open transactions roll back, connections end), keeping its data. */
  async shutdown(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await exited;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null) {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // SIGINT: PostgreSQL's fast shutdown.
      child.kill('SIGINT');
      await exited;
    }
    if (this.temporary) rmSync(this.dir, { recursive: true, force: true });
  }

  private run(tool: string, args: string[]): void {
    execFileSync(path.join(this.bin, tool), args, { stdio: 'ignore', ...asPostgresUser() });
  }

  private spawnAs(file: string, args: string[]): ChildProcess {
    // Spawned as that user itself (not through su or runuser), so a kill reaches postgres.
    return spawn(file, args, { stdio: 'ignore', ...asPostgresUser() });
  }
}

/** As root, the `postgres` user's ids (PostgreSQL will not run as root); otherwise nothing changes. */
function asPostgresUser(): { uid?: number; gid?: number; cwd?: string } {
  if (process.getuid?.() !== 0) return {};
  return { uid: uidOf('postgres'), gid: gidOf('postgres'), cwd: tmpdir() };
}

const idOf = (flag: '-u' | '-g', name: string) => Number(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim());
const uidOf = (name: string) => idOf('-u', name);
const gidOf = (name: string) => idOf('-g', name);
