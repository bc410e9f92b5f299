import { buildServer } from '../../server/app';
import { testConfig } from '../../server/config';

/**
 * The reference server in a process of its own, for the fan-out benchmark (fanout.ts): its CPU time and
 * memory are then its own, read from /proc, not mixed with the thousand clients'. Serves the data directory
 * given as the first argument (with a Redis URL and a node name after it, as one node of several); tells
 * its parent the URL (and its metrics listener's) over IPC and stops when told to.
 */
async function main(): Promise<void> {
  const [dataDir, redisUrl, nodeId, databaseUrl] = process.argv.slice(2);
  if (!dataDir || !process.send) throw new Error('usage: forked by tests/bench/fanout.ts with a data directory');
  // With a Redis URL the server is one node of a cluster (issue 21): the others share Redis and the database
  // (PostgreSQL when a URL follows, else the SQLite file in the directory).
  const cluster = redisUrl ? { redisUrl, nodeId: nodeId ?? 'node', ...(databaseUrl ? { databaseUrl } : {}) } : {};
  const server = await buildServer(testConfig(dataDir, cluster), { logStream: false });
  const url = await server.listen();
  process.on('message', (message) => {
    if (message === 'stop') void server.close().then(() => process.exit(0));
  });
  process.send({ url, metricsUrl: server.metricsUrl });
}

void main();
