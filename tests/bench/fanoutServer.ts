import { buildServer } from '../../server/app';
import { testConfig } from '../../server/config';

/**
 * The reference server in a process of its own, for the fan-out benchmark (fanout.ts): its CPU time and
 * memory are then its own, read from /proc, not mixed with the thousand clients'. Serves the data directory
 * given as the first argument; tells its parent the URL over IPC and stops when told to.
 */
async function main(): Promise<void> {
  const dataDir = process.argv[2];
  if (!dataDir || !process.send) throw new Error('usage: forked by tests/bench/fanout.ts with a data directory');
  const server = await buildServer(testConfig(dataDir), { logStream: false });
  const url = await server.listen();
  process.on('message', (message) => {
    if (message === 'stop') void server.close().then(() => process.exit(0));
  });
  process.send({ url });
}

void main();
