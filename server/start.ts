import path from 'node:path';
import { buildServer } from './app';
import { ConfigError, configFromEnv } from './config';
import { DatabaseTooNewError } from './db/database';
import { exitOnUnsupportedNode } from './runtime';

exitOnUnsupportedNode();

/**
 * The server process: `node dist-server/start.js` (the bundle `npm run build:server` makes of this file, which
 * `npm start` and the systemd unit run; README, "Running it for real"), or this file through tsx in
 * development. It builds nothing: `npm start` builds what is stale before it (scripts/prestart.ts).
 */
// server/ and dist-server/ both sit at the repository's top, beside the client's dist/.
const distDir = path.join(path.resolve(import.meta.dirname, '..'), 'dist');

/** Said in one line, without a stack, and the process exits with 1: the operator's mistake, not a crash. */
function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Listening failed for a reason of the machine (the port taken, the address not this machine's, a port below 1024). */
function isListenError(error: unknown): error is NodeJS.ErrnoException {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL' || code === 'EACCES';
}

async function main(): Promise<void> {
  // Every variable is read and checked before anything is touched: a bad one creates no DATA_DIR, opens no database.
  let config;
  try {
    config = configFromEnv(process.env, { clientDir: distDir });
  } catch (error) {
    if (error instanceof ConfigError) refuse(error.message);
    throw error;
  }
  let server;
  try {
    server = await buildServer(config);
  } catch (error) {
    // A database of a newer build, or a build whose connect-src.json is malformed: said plainly, no stack.
    if (error instanceof DatabaseTooNewError || error instanceof ConfigError) refuse(error.message);
    throw error;
  }
  let url: string;
  try {
    url = await server.listen();
  } catch (error) {
    if (!isListenError(error)) throw error;
    await server.close();
    refuse(`Cannot listen on ${config.host}:${config.port} (HOST, PORT): ${error.code}`);
  }
  // With DATABASE_URL the data is in PostgreSQL (named without its password) and only the uploads in DATA_DIR.
  const where = config.databaseUrl ? `${server.ctx.db.description}, files in ${config.dataDir}` : config.dataDir;
  const log = server.app.log;
  log.info({ url, metricsUrl: server.metricsUrl }, `Messenger is running at ${url} (data in ${where}; metrics at ${server.metricsUrl}/metrics)`);
  // The value itself stays out of the log (README: no level logs a PIN); whoever set it knows it.
  if (config.devPin) log.warn('MESSENGER_DEV_PIN is set: every PIN is the four digits it holds');
  // SIGTERM (a deploy, an orchestrator, systemd's stop) drains: clients move to other nodes at once and requests in flight
  // finish, within DRAIN_TIMEOUT_MS. A second signal does not wait.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, `${signal}: draining (at most ${config.drainTimeoutMs} ms)…`);
    void server.drain(config.drainTimeoutMs).then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'drain failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
