import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildReport } from '../scripts/build-report';
import { buildServer } from './app';
import { ConfigError, configFromEnv } from './config';
import { DatabaseTooNewError } from './db/database';
import { exitOnUnsupportedNode } from './runtime';

exitOnUnsupportedNode();

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, 'dist');

function newestMtime(target: string): number {
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/**
 * Builds the client when there is no build yet, or the sources changed since the last one. A production
 * install (`npm ci --omit=dev`) has no Vite: it serves the dist/ it was given, and says so when there is none.
 */
function buildClientIfNeeded(): void {
  const built = path.join(distDir, 'index.html');
  const sources = ['src', 'index.html', 'vite.config.ts', 'public'].map((p) => path.join(root, p)).filter(existsSync);
  if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestMtime))) return;
  const vite = path.join(root, 'node_modules/vite/bin/vite.js');
  if (!existsSync(vite)) {
    if (existsSync(built)) return;
    console.error(
      'There is no client build in dist/, and this install has no build tools (installed with --omit=dev). ' +
        'Run `npm run build` where the development dependencies are installed and copy dist/ here.',
    );
    process.exit(1);
  }
  console.log('Building the client…');
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  console.log(buildReport(distDir).join('\n'));
}

async function main(): Promise<void> {
  let config;
  try {
    config = configFromEnv(process.env, { clientDir: distDir });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  if (process.env.SKIP_CLIENT_BUILD !== '1') buildClientIfNeeded();
  let server;
  try {
    server = await buildServer(config);
  } catch (error) {
    // A database of a newer build, or a build whose connect-src.json is malformed: said plainly, no stack.
    if (error instanceof DatabaseTooNewError || error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const url = await server.listen();
  // With DATABASE_URL the data is in PostgreSQL (named without its password) and only the uploads in DATA_DIR.
  const where = config.databaseUrl ? `${server.ctx.db.description}, files in ${config.dataDir}` : config.dataDir;
  console.log(`Messenger is running at ${url} (data in ${where})`);
  if (config.devPin) console.log(`MESSENGER_DEV_PIN is set: every PIN is ${config.devPin}`);
  // SIGTERM (a deploy, an orchestrator) drains: clients move to other nodes at once and requests in flight
  // finish, within DRAIN_TIMEOUT_MS. A second signal does not wait.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`${signal}: draining (at most ${config.drainTimeoutMs} ms)…`);
    void server.drain(config.drainTimeoutMs).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('drain failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
