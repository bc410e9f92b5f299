import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * `npm run dev`: the API server (without building the client) on API_PORT (default 8080) and Vite with
 * hot reload on 5173, proxying /v1, /v2, /files and /ws to it (vite.config.ts).
 */
const root = path.resolve(import.meta.dirname, '..');
const apiPort = process.env.API_PORT ?? '8080';
const children = [
  spawn(process.execPath, [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'watch', 'server/start.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PORT: apiPort, SKIP_CLIENT_BUILD: '1' },
  }),
  spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js')], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, API_TARGET: `http://localhost:${apiPort}` },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
children.forEach((c) => c.on('exit', (code) => (code ? process.exit(code) : undefined)));
