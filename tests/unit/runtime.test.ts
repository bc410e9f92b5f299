import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE_MAJOR, unsupportedNodeMessage } from '../../server/runtime';

/**
 * The runtime (README, "Quick start"): `npm install` brings Node 22 as the `node` package, every npm script
 * runs on it even where the machine's own `node` is older, and the native modules load in it.
 */
const root = path.resolve(import.meta.dirname, '../..');
const major = (version: string) => Number(version.trim().split('.')[0]);

/** PATH as a shell outside npm has it: without the node_modules/.bin folders npm and npx put first. */
const shellPath = (process.env.PATH ?? '')
  .split(path.delimiter)
  .filter((dir) => !dir.includes(`node_modules${path.sep}.bin`) && !dir.includes('node-gyp-bin'))
  .join(path.delimiter);

/** The machine's own Node.js when it is older than the project's (Node 20 on the machines here), else null. */
function olderMachineNode(): string | null {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    try {
      const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
      if (major(version) < MINIMUM_NODE_MAJOR) return candidate;
    } catch {
      // not installed there
    }
  }
  return null;
}

describe('runtime', () => {
  it('runs the tests on Node 22 or later', () => {
    expect(major(process.versions.node)).toBeGreaterThanOrEqual(22);
    expect(MINIMUM_NODE_MAJOR).toBe(22);
  });

  it('runs npm scripts on the installed Node, whatever node the shell finds first', () => {
    const version = execFileSync('npm', ['exec', '--', 'node', '-p', 'process.versions.node'], {
      cwd: root,
      env: { ...process.env, PATH: shellPath },
      encoding: 'utf8',
    });
    expect(major(version)).toBeGreaterThanOrEqual(22);
  });

  it('loads better-sqlite3 in this Node', () => {
    const db = new Database(':memory:');
    try {
      expect(db.prepare('SELECT 40 + 2 AS answer').get()).toEqual({ answer: 42 });
    } finally {
      db.close();
    }
  });

  it('says in one line what is wrong with an older Node, and nothing with 22 or later', () => {
    expect(unsupportedNodeMessage('20.20.2')).toBe(
      'This server needs Node.js 22 or later, and this is Node.js 20.20.2. ' +
        'Start it with `npm start`, which runs the Node.js that `npm install` put in node_modules.',
    );
    expect(unsupportedNodeMessage('18.0.0')).toContain('this is Node.js 18.0.0');
    expect(unsupportedNodeMessage('22.12.0')).toBeNull();
    expect(unsupportedNodeMessage('24.1.0')).toBeNull();
  });

  it.skipIf(!olderMachineNode())('start refuses the machine’s older Node with that line and starts nothing', () => {
    const older = olderMachineNode() as string;
    const version = execFileSync(older, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    const run = spawnSync(older, ['--import', 'tsx', 'server/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PATH: shellPath,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'runtime-')),
        SKIP_CLIENT_BUILD: '1',
        SEED_DEMO: '0',
        NODE_ENV: 'test',
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(unsupportedNodeMessage(version));
    expect(run.stdout).not.toContain('running at');
  });
});
