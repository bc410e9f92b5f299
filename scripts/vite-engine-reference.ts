import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { engineReference } from './engine-reference.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const API = path.join(root, 'src/engine/api.ts');
const MODULE = 'virtual:engine-reference';

/**
 * The console's self-description (issue 24), both read from the contract (src/engine/api.ts) by the build:
 * - `virtual:engine-reference`, the list `engine.help()` prints (a chunk of its own, loaded on the first call);
 * - `engine.d.ts` beside the built app, the type of `window.engine` for a developer's editor. Bundling the
 *   declarations runs TypeScript over the contract (seconds), so it starts with the build, in a process of its
 *   own, and is awaited only when the build writes its files.
 */
export function engineReferencePlugin(): Plugin {
  let types: Promise<string> | null = null;
  let building = false;
  return {
    name: 'messenger-engine-reference',
    configResolved(config) {
      // Only `vite build` writes the file; the dev server and Vitest (which serve) need the list alone.
      building = config.command === 'build';
    },
    resolveId: (id) => (id === MODULE ? `\0${MODULE}` : null),
    load(id) {
      if (id !== `\0${MODULE}`) return null;
      this.addWatchFile(API);
      return `export default ${JSON.stringify(engineReference(readFileSync(API, 'utf8'), API))};`;
    },
    buildStart() {
      if (!building || types) return;
      types = bundleTypes();
      // Awaited in generateBundle; a failure there fails the build, not an unhandled rejection before it.
      types.catch(() => undefined);
    },
    async generateBundle() {
      if (!types) return;
      this.emitFile({ type: 'asset', fileName: 'engine.d.ts', source: await types });
    },
  };
}

function bundleTypes(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/engine-types.ts')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`engine.d.ts could not be generated:\n${Buffer.concat(err).toString('utf8')}`));
    });
  });
}
