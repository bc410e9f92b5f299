import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { buildClientIfNeeded } from '../build-client';
import { PostgresProcess, postgresBinDir } from './postgres';
import { freePort, HaproxyProcess, RedisProcess } from './processes';

const root = path.resolve(import.meta.dirname, '../..');

export interface LocalClusterOptions {
  /** How many server processes. */
  nodes: number;
  /** HAProxy's port (0: a free one) and address. */
  port: number;
  host?: string;
  /** The nodes' shared data directory (uploaded files; the database too when there is no PostgreSQL). */
  dataDir: string;
  /**
   * The nodes' PostgreSQL. Unset, one is started (Debian's postgresql, its data in `dataDir`/postgres) when it
   * is installed; `null`: none, the nodes share SQLite in `dataDir` (one machine only).
   */
  databaseUrl?: string | null;
  /** An existing Redis; without it one is started (Debian's redis-server). */
  redisUrl?: string;
  /** HAProxy's health-check interval. */
  checkMs?: number;
  /** More environment for every node (MESSENGER_DEV_PIN, limits…). */
  env?: Record<string, string>;
  /** Let the first node build the client when it is missing or stale (npm start's check). */
  buildClient?: boolean;
  /** Each node's output, line by line, with its name. */
  onOutput?: (node: string, line: string) => void;
}

export class NodeProcess {
  child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    readonly port: number,
    /** Its metrics listener's port (METRICS_PORT): nodes on one machine each need their own. */
    readonly metricsPort: number,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Where its `/metrics` is (loopback only, never through HAProxy). */
  get metricsUrl(): string {
    return `http://127.0.0.1:${this.metricsPort}`;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }
}

/**
 * The cluster shape on one machine (issue 21, `npm run cluster`): Redis, N server processes sharing one
 * data directory and the Redis bus, and HAProxy in front of them, so the app at one address is served by
 * all of them. Each node can be killed, stopped (SIGTERM: it drains) and started again.
 */
export class LocalCluster {
  private redis: RedisProcess | undefined;
  private postgres: PostgresProcess | undefined;

  private constructor(
    private readonly options: LocalClusterOptions,
    readonly nodes: NodeProcess[],
    readonly redisUrl: string,
    /** The nodes' PostgreSQL, or undefined when they share SQLite. */
    readonly databaseUrl: string | undefined,
    readonly proxy: HaproxyProcess,
    redis: RedisProcess | undefined,
    postgres: PostgresProcess | undefined,
  ) {
    this.redis = redis;
    this.postgres = postgres;
  }

  get url(): string {
    return this.proxy.url;
  }

  static async start(options: LocalClusterOptions): Promise<LocalCluster> {
    const redis = options.redisUrl ? undefined : await RedisProcess.start();
    const redisUrl = options.redisUrl ?? (redis as RedisProcess).url;
    const postgres =
      options.databaseUrl === undefined && postgresBinDir() !== undefined
        ? await PostgresProcess.start({ dir: path.join(options.dataDir, 'postgres') })
        : undefined;
    const databaseUrl = options.databaseUrl ?? postgres?.url;
    const nodes: NodeProcess[] = [];
    for (let i = 1; i <= options.nodes; i++) nodes.push(new NodeProcess(`node-${i}`, await freePort(), await freePort()));
    const proxy = await HaproxyProcess.start(
      nodes.map((n) => ({ name: n.name, port: n.port })),
      { ...(options.checkMs ? { checkMs: options.checkMs } : {}), port: options.port || (await freePort()), ...(options.host ? { host: options.host } : {}) },
    );
    const cluster = new LocalCluster(options, nodes, redisUrl, databaseUrl, proxy, redis, postgres);
    // The first alone: it builds the client if asked and migrates (and seeds) a new database.
    await cluster.startNode(0, options.buildClient === true);
    await Promise.all(nodes.slice(1).map((_, i) => cluster.startNode(i + 1)));
    return cluster;
  }

  /** Starts node `index` (again) and resolves once its /readyz answers 200. */
  async startNode(index: number, buildClient = false): Promise<void> {
    const node = this.node(index);
    // What npm start builds before its server (scripts/prestart.ts): the nodes run server/start.ts, which builds nothing.
    if (buildClient) buildClientIfNeeded();
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(node.port),
        HOST: '127.0.0.1',
        METRICS_PORT: String(node.metricsPort),
        DATA_DIR: this.options.dataDir,
        REDIS_URL: this.redisUrl,
        ...(this.databaseUrl ? { DATABASE_URL: this.databaseUrl } : {}),
        NODE_ID: node.name,
        // Behind HAProxy on this machine: its X-Forwarded-For names the client.
        TRUST_PROXY: '127.0.0.1',
        ...(buildClient ? {} : { SKIP_CLIENT_BUILD: '1' }),
        ...this.options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    node.child = child;
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream?.on('data', (chunk: Buffer) => {
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) this.options.onOutput?.(node.name, line);
      });
    }
    await this.waitReady(node, buildClient ? 600_000 : 30_000);
  }

  /** SIGKILL: no drain, no goodbye. */
  async killNode(index: number): Promise<void> {
    await this.signal(index, 'SIGKILL');
  }

  /** SIGTERM: the node drains (its clients reconnect elsewhere at once) and exits. */
  async stopNode(index: number): Promise<number | null> {
    return this.signal(index, 'SIGTERM');
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((_, i) => this.stopNode(i)));
    await this.proxy.stop();
    await this.redis?.stop();
    this.redis = undefined;
    await this.postgres?.stop();
    this.postgres = undefined;
  }

  /** The PostgreSQL this cluster started (undefined with an outside one or SQLite): for faults. */
  get ownPostgres(): PostgresProcess | undefined {
    return this.postgres;
  }

  /** The Redis this cluster started (undefined with an outside one): for faults. */
  get ownRedis(): RedisProcess | undefined {
    return this.redis;
  }

  private node(index: number): NodeProcess {
    const node = this.nodes[index];
    if (!node) throw new Error(`no node ${index}`);
    return node;
  }

  private async signal(index: number, signal: NodeJS.Signals): Promise<number | null> {
    const node = this.node(index);
    const child = node.child;
    if (!child || !node.running) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    return exited;
  }

  private async waitReady(node: NodeProcess, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!node.running) throw new Error(`${node.name} exited with ${node.child?.exitCode}`);
      try {
        if ((await fetch(`${node.url}/readyz`)).status === 200) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`${node.name} was not ready within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}
