import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the client into `outDir` as `npm run build` does, as a production build: what `npm start` serves.
 * Only `env` sets build variables (VITE_*, MESSENGER_BUILD_*): any in the test's own environment are left
 * out, so a build is the same on every machine.
 */
export function buildClient(outDir: string, env: Record<string, string> = {}): void {
  const clean: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(clean)) if (key.startsWith('VITE_') || key.startsWith('MESSENGER_BUILD_')) delete clean[key];
  const args = [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'];
  execFileSync(process.execPath, args, {
    cwd: root,
    // Vitest sets NODE_ENV=test, which would make this a development build: test what `npm start` serves.
    env: { ...clean, ...env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}

/** A build into a new temporary folder (the caller removes it). */
export function buildClientInTemp(prefix: string, env: Record<string, string> = {}): string {
  const outDir = mkdtempSync(path.join(tmpdir(), prefix));
  buildClient(outDir, env);
  return outDir;
}
