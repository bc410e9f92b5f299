import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** The e2e tests serve the built client, as `npm start` does: build it once per run. */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], {
    cwd: root,
    stdio: 'inherit',
  });
}
