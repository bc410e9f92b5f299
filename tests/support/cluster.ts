import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresProcess, postgresBinDir } from '../../scripts/cluster/postgres';
import { HaproxyProcess, RedisProcess } from '../../scripts/cluster/processes';
import { type BuiltServer, buildServer } from '../../server/app';
import { type ServerConfig, testConfig } from '../../server/config';

export { HaproxyProcess, RedisProcess } from '../../scripts/cluster/processes';

export interface InProcessNode {
  server: BuiltServer;
  url: string;
}

export interface InProcessCluster {
  redis: RedisProcess;
  /** The nodes' PostgreSQL (Debian's; undefined where it is not installed, and the nodes share SQLite). */
  postgres: PostgresProcess | undefined;
  nodes: InProcessNode[];
  /** HAProxy in front of the nodes, when asked for. */
  proxy: HaproxyProcess | undefined;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * `count` servers in this process sharing a PostgreSQL, a data directory and a Redis of their own (the
 * test's cluster: real sockets, real Redis, one database), started one after the other so the first migrates.
 */
export async function startInProcessCluster(
  count: number,
  overrides: Partial<ServerConfig> = {},
  options: { proxy?: boolean } = {},
): Promise<InProcessCluster> {
  const redis = await RedisProcess.start();
  const postgres = postgresBinDir() ? await PostgresProcess.start({ throwaway: true }) : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-cluster-'));
  const nodes: InProcessNode[] = [];
  const store = postgres ? { databaseUrl: postgres.url } : {};
  for (let i = 1; i <= count; i++) {
    const server = await buildServer(testConfig(dataDir, { redisUrl: redis.url, nodeId: `n${i}`, ...store, ...overrides }), {
      logStream: false,
    });
    nodes.push({ server, url: await server.listen() });
  }
  const proxy = options.proxy
    ? await HaproxyProcess.start(nodes.map((n, i) => ({ name: `n${i + 1}`, port: Number(new URL(n.url).port) })))
    : undefined;
  return {
    redis,
    postgres,
    nodes,
    proxy,
    dataDir,
    async stop() {
      await proxy?.stop();
      for (const n of nodes) await n.server.close();
      await redis.stop();
      await postgres?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
