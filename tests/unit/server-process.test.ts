import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle } from '../../scripts/build-server';
import { SOCKET_CLOSE_RESTART } from '../../src/protocol/constants';
import { answers, isRunning, ServerProcess } from '../support/serverProcess';
import { signUp, TEST_PIN, TestSocket } from '../support/server';

/**
 * The server as an operator runs it (README, "Running it for real"): `npm start` under a supervisor that
 * signals only the pid it started, and `node dist-server/start.js` given a bad setting.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'messenger-process-'));
  dirs.push(dir);
  return dir;
};
/** Servers a failed test could leave running. */
const pids: number[] = [];

beforeAll(async () => {
  // Once for the file: what `npm start` would build when stale, so its start here builds nothing.
  await buildServerBundle();
}, 60_000);

afterAll(() => {
  for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const env = (dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  PORT: '0',
  // Tests run side by side, and beside a developer's own server: each metrics listener on a free port.
  METRICS_PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  SKIP_CLIENT_BUILD: '1',
  SEED_DEMO: '0',
  MESSENGER_DEV_PIN: TEST_PIN,
  NODE_ENV: 'test',
  ...extra,
});

describe('npm start under a supervisor', () => {
  it('runs the server bundle as npm’s own child, which SIGTERM to npm drains: no orphan left listening', async () => {
    const npm = ServerProcess.spawn('npm', ['start'], { cwd: root, env: env(tempDir()) });
    const url = await npm.url();
    const pid = npm.serverPid();
    pids.push(pid);
    // No shell and no tsx between npm and the server: npm's signal reaches the server itself.
    expect(pid).not.toBe(npm.child.pid);
    expect(readFileSync(`/proc/${pid}/status`, 'utf8')).toMatch(new RegExp(`\\nPPid:\\s+${npm.child.pid}\\n`));
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('dist-server/start.js');
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const anna = await signUp(url, 'Anna');
    const socket = new TestSocket(url, anna.token);
    await socket.loaded();

    // What a supervisor does: SIGTERM to the pid it started, and only that one.
    npm.child.kill('SIGTERM');
    // npm waits for its child, so once npm is gone the server must be too (it was left running, still ready).
    expect(await npm.exited).toBe(0);
    expect(isRunning(pid)).toBe(false);
    expect(npm.output).toContain('SIGTERM: draining');
    expect(await socket.closed).toBe(SOCKET_CLOSE_RESTART);
    expect(await answers(`${url}/readyz`)).toBe(false);
  }, 60_000);
});

describe('a bad setting', () => {
  it.each([
    ['PORT', '99999'],
    ['HOST', 'not-a-host'],
    ['TRUST_PROXY', 'banana'],
    ['SEED_DEMO', 'yes'],
  ])('%s=%s: the bundle prints one line naming it, no stack, creates no DATA_DIR and exits 1', async (name, value) => {
    const dataDir = path.join(tempDir(), 'data');
    const node = ServerProcess.spawn(process.execPath, ['dist-server/start.js'], { cwd: root, env: env(dataDir, { [name]: value }) });
    expect(await node.exited).toBe(1);
    expect(node.output.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^${name} must be .*, got "${value}"$`))]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it.each([
    ['PORT', '99999', 'PORT must be a whole number from 0 to 65535, got "99999"'],
    ['SKIP_CLIENT_BUILD', 'yes', 'SKIP_CLIENT_BUILD must be 1 or 0, got "yes"'],
  ])('%s=%s npm start says so before it builds anything, and exits 1', async (name, value, line) => {
    const dataDir = path.join(tempDir(), 'data');
    const npm = ServerProcess.spawn('npm', ['start', '--silent'], { cwd: root, env: env(dataDir, { SKIP_CLIENT_BUILD: '', [name]: value }) });
    expect(await npm.exited).toBe(1);
    expect(npm.output.trim().split('\n')).toEqual([line]);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('a port another process holds: one line naming HOST and PORT, no stack, exit 1', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = String((holder.address() as { port: number }).port);
    try {
      const node = ServerProcess.spawn(process.execPath, ['dist-server/start.js'], { cwd: root, env: env(tempDir(), { PORT: port, LOG_LEVEL: 'silent' }) });
      expect(await node.exited).toBe(1);
      expect(node.output.trim().split('\n')).toEqual([`Cannot listen on 127.0.0.1:${port} (HOST, PORT): EADDRINUSE`]);
    } finally {
      holder.close();
    }
  });
});
