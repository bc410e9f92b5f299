import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { LocalCluster } from './cluster/localCluster';
import { postgresBinDir } from './cluster/postgres';

/**
 * `npm run cluster` (issue 21): the app at one address, served by several nodes. PostgreSQL (DATABASE_URL,
 * else Debian's postgresql with its data in DATA_DIR/postgres; without it the nodes share SQLite in DATA_DIR),
 * Redis (Debian's redis-server, unless REDIS_URL names one), CLUSTER_NODES server processes (3) sharing the
 * database, DATA_DIR (./data-cluster, uploaded files) and the Redis bus, and HAProxy (Debian's haproxy) on
 * CLUSTER_PORT (8080) in front of them.
 * Ctrl-C drains the nodes and stops everything.
 */

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

async function main(): Promise<void> {
  const missing = [
    ...(process.env.REDIS_URL ? [] : has('redis-server') ? [] : ['redis-server']),
    ...(has('haproxy') || has('/usr/sbin/haproxy') ? [] : ['haproxy']),
  ];
  if (!process.env.DATABASE_URL && !postgresBinDir()) {
    console.warn('No PostgreSQL (Debian’s postgresql, or DATABASE_URL): the nodes share SQLite, on this machine only.');
  }
  if (missing.length > 0) {
    console.error(`The cluster needs Debian packages that are missing: run \`sudo apt-get install -y ${missing.join(' ')}\`.`);
    process.exit(1);
  }
  const nodes = Number(process.env.CLUSTER_NODES || 3);
  const port = Number(process.env.CLUSTER_PORT || 8080);
  const dataDir = path.resolve(process.env.DATA_DIR || 'data-cluster');
  if (!Number.isInteger(nodes) || nodes < 1 || !Number.isInteger(port) || port < 1) {
    console.error('CLUSTER_NODES and CLUSTER_PORT must be whole numbers above 0');
    process.exit(1);
  }
  console.log(`Starting ${nodes} nodes on ${dataDir}…`);
  const cluster = await LocalCluster.start({
    nodes,
    port,
    host: '*',
    dataDir,
    ...(process.env.REDIS_URL ? { redisUrl: process.env.REDIS_URL } : {}),
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
    checkMs: 1_000,
    buildClient: process.env.SKIP_CLIENT_BUILD !== '1',
    onOutput: (node, line) => console.log(`[${node}] ${line}`),
  });
  console.log(
    `Messenger cluster is running at http://localhost:${port} (HAProxy in front of ${cluster.nodes
      .map((n) => `${n.name} ${n.url}, metrics ${n.metricsUrl}/metrics`)
      .join(', ')}; Redis ${cluster.redisUrl}; ${cluster.databaseUrl ? `PostgreSQL ${cluster.databaseUrl}` : 'SQLite'}; files in ${dataDir})`,
  );
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log('Stopping the cluster (the nodes drain)…');
    void cluster.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
