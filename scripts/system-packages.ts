import { execFileSync, spawnSync } from 'node:child_process';
import { chromiumPath } from '../tests/support/chromium';

/**
 * The Debian packages `npm test` needs besides Node (the README's two commands do all the set-up): Chromium
 * for the browser and end-to-end tests, and the fonts the screenshot tests compare against (DejaVu Sans,
 * Noto Color Emoji: without them a fresh machine draws other glyphs and emoji as boxes), and Redis, HAProxy
 * and PostgreSQL for the cluster tests. Run as root, it
 * installs what is missing; otherwise it prints the one apt-get line to run and stops the test run.
 */
const FONTS = ['fonts-dejavu-core', 'fonts-noto-color-emoji'];
/** The cluster shape's tests (issue 21): nodes share Redis and sit behind HAProxy; PostgreSQL is the shared store. */
const CLUSTER = ['redis-server', 'haproxy', 'postgresql'];

const installed = (pkg: string) => spawnSync('dpkg', ['-s', pkg], { stdio: 'ignore' }).status === 0;

export function missingPackages(): string[] {
  const missing = chromiumPath() ? [] : ['chromium'];
  const hasDpkg = spawnSync('dpkg', ['--version'], { stdio: 'ignore' }).status === 0;
  // Without dpkg (not Debian) the fonts cannot be checked here; Chromium is what the tests cannot run without.
  if (hasDpkg) missing.push(...[...FONTS, ...CLUSTER].filter((pkg) => !installed(pkg)));
  return missing;
}

function main(): void {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const line = `apt-get install -y ${missing.join(' ')}`;
  if (process.getuid?.() !== 0) {
    console.error(`The tests need Debian packages that are missing: run \`sudo ${line}\` (or set CHROMIUM_PATH to a Chromium binary).`);
    process.exit(1);
  }
  console.log(`Installing what the tests need: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', ...missing], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const still = missingPackages();
  if (still.length > 0) {
    console.error(`Still missing after apt-get: ${still.join(' ')}`);
    process.exit(1);
  }
}

main();
