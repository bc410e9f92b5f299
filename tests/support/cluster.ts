import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  nodes: InProcessNode[];
  /** HAProxy in front of the nodes, when asked for. */
  proxy: HaproxyProcess | undefined;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * `count` servers in this process sharing one data directory and a Redis of their own (the test's
 * cluster: real sockets, real Redis, one database), started one after the other so the first migrates.
 */
export async function startInProcessCluster(
  count: number,
  overrides: Partial<ServerConfig> = {},
  options: { proxy?: boolean } = {},
): Promise<InProcessCluster> {
  const redis = await RedisProcess.start();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-cluster-'));
  const nodes: InProcessNode[] = [];
  for (let i = 1; i <= count; i++) {
    const server = await buildServer(testConfig(dataDir, { redisUrl: redis.url, nodeId: `n${i}`, ...overrides }), { logStream: false });
    nodes.push({ server, url: await server.listen() });
  }
  const proxy = options.proxy
    ? await HaproxyProcess.start(nodes.map((n, i) => ({ name: `n${i + 1}`, port: Number(new URL(n.url).port) })))
    : undefined;
  return {
    redis,
    nodes,
    proxy,
    dataDir,
    async stop() {
      await proxy?.stop();
      for (const n of nodes) await n.server.close();
      await redis.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
