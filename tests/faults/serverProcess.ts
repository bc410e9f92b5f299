import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Store } from '../../server/db/store';
import type { CspReport } from '../../server/http/cspReports';
import { recordCspReport } from '../support/cspReports';
import { readStore } from '../support/readOnlyStore';
import { CLIENT_DIR } from '../support/tabs';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * The real reference server in a child process that a test can SIGKILL at any moment and start again on
 * the same port with the same data directory: tabs keep their origin (and IndexedDB), the server its
 * SQLite database. Only what SQLite committed survives a kill, as on a crashed machine's disk.
 */
export class KillableServer {
  private child: ChildProcess | null = null;
  /** How many times it was killed. */
  kills = 0;

  /** The port it listens on: ephemeral at the first start, the same at every restart. */
  port = 0;

  private constructor(
    readonly dataDir: string,
    private readonly pingIntervalMs: number | undefined,
  ) {}

  static async start(options: { pingIntervalMs?: number } = {}): Promise<KillableServer> {
    const s = new KillableServer(mkdtempSync(path.join(tmpdir(), 'messenger-faults-')), options.pingIntervalMs);
    s.port = Number(new URL(await s.spawn(0)).port);
    return s;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** SIGKILL: no close, no flush, no goodbye to any socket. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.kills += 1;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.spawn(this.port);
  }

  /** Reads the server's database (its own file, read-only, beside the running server: SQLite's WAL allows it). */
  read<T>(query: (db: Store) => Promise<T>): Promise<T> {
    return readStore({ dataDir: this.dataDir }, query);
  }

  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }

  private spawn(port: number): Promise<string> {
    // `node --import tsx`, not the tsx CLI: the CLI runs the script in a grandchild that a SIGKILL would orphan.
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'server-entry.ts')], {
      cwd: root,
      env: {
        ...process.env,
        FAULT_PORT: String(port),
        FAULT_DATA_DIR: this.dataDir,
        FAULT_CLIENT_DIR: CLIENT_DIR,
        ...(this.pingIntervalMs ? { FAULT_PING_INTERVAL_MS: String(this.pingIntervalMs) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    return new Promise((resolve, reject) => {
      let out = '';
      let pending = '';
      const timer = setTimeout(() => reject(new Error(`the server did not start: ${out}`)), 60_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          out += `${line}\n`;
          const listening = /^listening at (http:\/\/\S+)/.exec(line);
          if (listening?.[1]) {
            clearTimeout(timer);
            resolve(listening[1]);
          }
          if (line.startsWith('csp-report ')) recordCspReport(JSON.parse(line.slice('csp-report '.length)) as CspReport);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal !== 'SIGKILL') reject(new Error(`the server exited (${code ?? signal}): ${out}`));
      });
    });
  }
}
