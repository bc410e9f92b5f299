import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The e2e tests serve the built client, as `npm start` does: build it once per run. E2E_CLIENT_DIR puts the
 * build elsewhere, so two runs side by side do not overwrite each other's client.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const outDir = process.env.E2E_CLIENT_DIR ?? path.join(root, 'dist');
  const args = [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'];
  execFileSync(process.execPath, args, {
    cwd: root,
    // Vitest sets NODE_ENV=test, which would make this a development build: test what `npm start` serves.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}
