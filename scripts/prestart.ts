import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, configFromEnv } from '../server/config';
import { buildClientIfNeeded } from './build-client';
import { buildServerBundle, SERVER_OUT_DIR, serverBundleIsStale } from './build-server';

/**
 * `npm start`'s first half: checks the configuration, then builds what is stale (the client with Vite, the
 * server bundle with esbuild), and exits. The second half, `exec node dist-server/start.js`, replaces npm's
 * shell with the server itself, so the signal a supervisor sends npm reaches the server, which drains
 * (README, "Running it for real"): a shell that stayed between them would die of it and leave the server running.
 */

/** SKIP_CLIENT_BUILD=1: serve the dist/ there is, unchecked (a build made elsewhere). */
function skipClientBuild(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new ConfigError(`SKIP_CLIENT_BUILD must be 1 or 0, got "${value}"`);
}

try {
  // The server checks them again; here a mistake is said before a minute of building, not after.
  configFromEnv(process.env);
  if (!skipClientBuild(process.env.SKIP_CLIENT_BUILD)) buildClientIfNeeded();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
if (serverBundleIsStale()) await buildServerBundle();
if (!existsSync(path.join(SERVER_OUT_DIR, 'start.js'))) {
  console.error('There is no server build in dist-server/: run `npm run build` and copy dist-server/ here.');
  process.exit(1);
}
