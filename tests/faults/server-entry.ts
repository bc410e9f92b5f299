import { buildServer } from '../../server/app';
import { testConfig } from '../../server/config';

/**
 * The reference server as a process of its own, so a fault test can SIGKILL it (an in-process server can
 * only be closed politely). The test's settings come in through the environment; the first line on stdout
 * says where it listens, and each CSP violation report comes back as one line for the test to check.
 */
const env = process.env;
const server = await buildServer(
  testConfig(env.FAULT_DATA_DIR ?? '', {
    port: Number(env.FAULT_PORT ?? 0),
    clientDir: env.FAULT_CLIENT_DIR,
    ...(env.FAULT_PING_INTERVAL_MS ? { pingIntervalMs: Number(env.FAULT_PING_INTERVAL_MS) } : {}),
  }),
  { logStream: false, onCspReport: (report) => console.log(`csp-report ${JSON.stringify(report)}`) },
);
console.log(`listening at ${await server.listen()}`);
