import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildReport } from './build-report';

/** The client's build as `npm start` (scripts/prestart.ts) and `npm run cluster` make it when it is stale. */
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
export function buildClientIfNeeded(): void {
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
