import { type ChildProcess, spawn, type SpawnOptions } from 'node:child_process';

/**
 * A server process as an operator starts it (`npm start`, `node dist-server/start.js`, a systemd unit's
 * ExecStart): its output kept, its URL read from the line it prints when it listens, and the pid of the node
 * that serves (pino's lines name it), which may be a child of the process spawned.
 */
export class ServerProcess {
  output = '';
  readonly exited: Promise<number | null>;

  private constructor(readonly child: ChildProcess) {
    child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  static spawn(command: string, args: string[], options: SpawnOptions): ServerProcess {
    return new ServerProcess(spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] }));
  }

  /** Resolves with the URL once the server listens; rejects when the process exits first or takes over `ms`. */
  url(ms = 30_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start: ${this.output}`)), ms);
      const check = () => {
        const match = /running at (http:\/\/\S+)/.exec(this.output);
        if (!match?.[1]) return;
        clearTimeout(timer);
        resolve(match[1]);
      };
      this.child.stdout?.on('data', check);
      this.child.stderr?.on('data', check);
      void this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the server exited with ${code}: ${this.output}`));
      });
      check();
    });
  }

  /** The pid of the node that serves, from its structured log. */
  serverPid(): number {
    const match = /"pid":(\d+)/.exec(this.output);
    if (!match?.[1]) throw new Error(`no pid in the log: ${this.output}`);
    return Number(match[1]);
  }
}

/** Whether a process with this pid is still running (signal 0 checks without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether anything answers at `url` (a refused connection is false). */
export async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return true;
  } catch {
    return false;
  }
}
