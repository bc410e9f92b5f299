import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * `npm run build:server` (also the last step of `npm run build`, and of `npm start` when the bundle is stale):
 * the server's entry points bundled into `dist-server/`, which production runs with plain `node`, no tsx, no
 * npm (README, "Running it for real"). One line per entry: `dist-server/<name>.js` from its source.
 */
export const SERVER_ENTRIES: Record<string, string> = {
  start: 'server/start.ts',
  admin: 'server/admin/cli.ts',
  migrate: 'server/admin/migrate.ts',
  backup: 'server/backup/cli.ts',
};

const root = path.resolve(import.meta.dirname, '..');
export const SERVER_OUT_DIR = path.join(root, 'dist-server');
/** What the last bundle was made of (esbuild's metafile): its inputs decide whether it is stale. */
const META_FILE = path.join(SERVER_OUT_DIR, 'meta.json');

interface BundleMeta {
  entries: Record<string, string>;
  inputs: string[];
}

/**
 * True when an entry's bundle is missing, the entries changed, or a file it was made of changed since (or is
 * gone). The inputs are the ones esbuild itself read, so a change anywhere the server imports counts.
 */
export function serverBundleIsStale(entries: Record<string, string> = SERVER_ENTRIES): boolean {
  if (!existsSync(META_FILE)) return true;
  const meta = JSON.parse(readFileSync(META_FILE, 'utf8')) as BundleMeta;
  if (JSON.stringify(meta.entries) !== JSON.stringify(entries)) return true;
  const outputs = Object.keys(entries).map((name) => path.join(SERVER_OUT_DIR, `${name}.js`));
  if (!outputs.every(existsSync)) return true;
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return meta.inputs.some((input) => {
    const file = path.join(root, input);
    return !existsSync(file) || statSync(file).mtimeMs > built;
  });
}

/**
 * Bundles the entries: the project's own code in one file each, every package left to `node_modules` (the
 * native and optional ones — better-sqlite3, pg, ioredis, sharp… — cannot be bundled, and a production install
 * has them all: they are the dependencies).
 */
export async function buildServerBundle(entries: Record<string, string> = SERVER_ENTRIES): Promise<void> {
  mkdirSync(SERVER_OUT_DIR, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, source]) => [name, path.join(root, source)])),
    outdir: SERVER_OUT_DIR,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    write: false,
  });
  // Each file replaced whole (written beside it, then renamed): a server starting meanwhile, or a second
  // build at the same time (two test files), never reads half a bundle.
  const meta: BundleMeta = { entries, inputs: Object.keys(result.metafile.inputs) };
  const files = [
    ...result.outputFiles.map((file) => ({ path: file.path, contents: file.contents })),
    { path: META_FILE, contents: `${JSON.stringify(meta, null, 2)}\n` },
  ];
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildServerBundle();
  console.log(`Server built into ${path.relative(process.cwd(), SERVER_OUT_DIR) || '.'}/: ${Object.keys(SERVER_ENTRIES).map((n) => `${n}.js`).join(', ')}`);
}
