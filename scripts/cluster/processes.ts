import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The cluster shape's outside parts (issue 21), for `npm run cluster` and the tests: Debian's redis-server
 * and haproxy, each started on a loopback port in a directory of its own, and stopped (or killed, for a
 * fault) by whoever started them.
 */

/** A free TCP port on loopback (the OS picks it; closed again before it is handed out). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves when `child`'s output matches `ready`; rejects when it exits first or `timeoutMs` passes. */
function waitForOutput(child: ChildProcess, ready: RegExp, what: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${out}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code}: ${out}`));
    });
  });
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

export class RedisProcess {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(path.join(tmpdir(), 'messenger-redis-'));

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(port?: number): Promise<RedisProcess> {
    const redis = new RedisProcess(port ?? (await freePort()));
    await redis.restart();
    return redis;
  }

  /** Starts it (again, on the same port): an empty Redis, as after a crash without persistence. */
  async restart(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir];
    this.child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForOutput(this.child, /Ready to accept connections/, 'redis-server');
  }

  async kill(): Promise<void> {
    if (!this.child) return;
    this.child.kill('SIGKILL');
    await exited(this.child);
    this.child = undefined;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface Backend {
  name: string;
  port: number;
}

/**
 * What the public address lets through to a node, by allow-list (docs/server.md, "Metrics"): the API's
 * prefixes, the websocket, the probes, the CSP reports, the client's files and its routes; anything else is
 * refused with 403, whatever its spelling. HAProxy compares the raw path while the node decodes it, so a path
 * with a dot segment, a doubled slash or an encoded dot, slash or backslash is refused before the list is
 * read (no route of the app has one). The nodes' metrics are on a listener of their own besides (METRICS_PORT),
 * which this balancer never forwards to.
 */
export const FRONTEND_ALLOW_LIST: readonly string[] = [
  '  acl odd_path path_reg /\\.\\.?(/|$)',
  '  acl odd_path path_sub //',
  '  acl odd_path path_sub -i %2e %2f %5c',
  '  acl app_path path_beg /v1/ /v2/ /files/ /assets/ /icons/ /workbox-',
  '  acl app_path path / /ws /healthz /readyz /csp-report /index.html /sw.js /registerSW.js /manifest.webmanifest',
  '  acl app_path path_reg ^/(login|nickname|satir|satir-nickname|inbox|explore|settings|profile|debug)(/|$)',
  '  http-request deny if odd_path',
  '  http-request deny unless app_path',
];

/**
 * HAProxy in front of the nodes, as the README's cluster runs it: round robin, websockets tunnelled, a
 * node taken out while its /readyz fails (checked every `checkMs`) unless all of them fail, and a request
 * whose node refuses the connection sent to another.
 */
export function haproxyConfig(port: number, backends: readonly Backend[], checkMs = 500, host = '127.0.0.1'): string {
  return [
    'global',
    // Each connection takes two descriptors (client and node side); 9,000 stays under a 20,000 limit.
    '  maxconn 9000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 10s',
    '  option redispatch',
    '  retries 3',
    '  option forwardfor',
    'frontend app',
    `  bind ${host}:${port}`,
    ...FRONTEND_ALLOW_LIST,
    '  default_backend nodes',
    'backend nodes',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    `  default-server inter ${checkMs}ms fastinter ${checkMs}ms downinter ${checkMs}ms fall 2 rise 2`,
    ...backends.map((b) => `  server ${b.name} 127.0.0.1:${b.port} check`),
    // The same nodes again, unchecked, used only when every checked one is down: a dependency all nodes
    // share (Redis) failing their /readyz together must not turn a slower cluster into no cluster.
    ...backends.map((b) => `  server ${b.name}-fallback 127.0.0.1:${b.port} backup`),
    '',
  ].join('\n');
}

export class HaproxyProcess {
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(backends: readonly Backend[], options: { checkMs?: number; port?: number; host?: string } = {}): Promise<HaproxyProcess> {
    const port = options.port ?? (await freePort());
    const dir = mkdtempSync(path.join(tmpdir(), 'messenger-haproxy-'));
    const file = path.join(dir, 'haproxy.cfg');
    writeFileSync(file, haproxyConfig(port, backends, options.checkMs, options.host));
    // -db: in the foreground, logging to stderr; -W would fork a master.
    const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-4000)));
    child.once('exit', (code) => {
      if (code !== 0 && code !== null) console.error(`haproxy exited with ${code}: ${output}`);
    });
    const proxy = new HaproxyProcess(child, dir, port);
    await proxy.waitListening();
    return proxy;
  }

  private async waitListening(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (this.child.exitCode !== null) throw new Error(`haproxy exited with ${this.child.exitCode}`);
      try {
        await fetch(`${this.url}/healthz`);
        return;
      } catch {
        if (Date.now() > deadline) throw new Error('haproxy did not start listening');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  async stop(): Promise<void> {
    this.child.kill('SIGTERM');
    await exited(this.child);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
