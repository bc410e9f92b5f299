import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

describe('the test server outside Vitest', () => {
  // `npm run bench` runs under tsx, not Vitest, and starts its servers with the tests' startTestServer: a
  // helper that asks Vitest for its run's settings there failed every benchmark that needs a server.
  it('starts and answers under plain tsx, as npm run bench runs it', async () => {
    const script = `
      const { startTestServer } = await import(${JSON.stringify(path.join(root, 'tests/support/server.ts'))});
      const s = await startTestServer();
      const r = await fetch(s.url + '/healthz');
      console.log('status', r.status);
      await s.close();
    `;
    const env = { ...process.env };
    delete env.VITEST;
    delete env.VITEST_WORKER_ID;
    delete env.VITEST_POOL_ID;
    const dir = mkdtempSync(path.join(tmpdir(), 'messenger-outside-vitest-'));
    try {
      const file = path.join(dir, 'start.mts');
      writeFileSync(file, script);
      const { stdout } = await run(path.join(root, 'node_modules/.bin/tsx'), [file], { cwd: root, env });
      expect(stdout).toContain('status 200');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
