import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, configFromEnv } from '../server/config';
import { buildReport } from './build-report';
import { buildServerBundle, SERVER_OUT_DIR, serverBundleIsStale } from './build-server';

/**
 * `npm start`'s first half: checks the configuration, then builds what is stale (the client with Vite, the
 * server bundle with esbuild), and exits. The second half, `exec node dist-server/start.js`, replaces npm's
 * shell with the server itself, so the signal a supervisor sends npm reaches the server, which drains
 * (README, "Running it for real"): a shell that stayed between them would die of it and leave the server running.
 */
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
