import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Builds the client into `outDir` as `npm run build` does, as a production build: what `npm start` serves.
 * `env` adds build variables, for example MESSENGER_BUILD_ID for a second deploy (vite.config.ts).
 */
export function buildClient(outDir: string, env: Record<string, string> = {}): void {
  const args = [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error', '--outDir', outDir, '--emptyOutDir'];
  execFileSync(process.execPath, args, {
    cwd: root,
    // Vitest sets NODE_ENV=test, which would make this a development build: test what `npm start` serves.
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: 'inherit',
  });
}
