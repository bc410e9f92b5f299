import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServerBundle } from '../../scripts/build-server';
import { configFromEnv } from '../../server/config';
import { answers, isRunning, ServerProcess } from '../support/serverProcess';

/**
 * deploy/messenger.service, the unit README's "Running it for real" installs: read as systemd reads it, and
 * its ExecStart run as systemd would run it (its WorkingDirectory mapped to this checkout, its Environment=
 * lines and the example EnvironmentFile, nothing of this shell's environment but PATH), then stopped with its
 * KillSignal.
 */
const root = path.resolve(import.meta.dirname, '../..');

/** A unit file's settings: section → key → values, in order (Environment= and the like repeat). */
function parseUnit(text: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section?.[1]) {
      current = new Map();
      sections.set(section[1], current);
      continue;
    }
    const eq = line.indexOf('=');
    if (!current || eq < 1) throw new Error(`not a unit file line: ${raw}`);
    const key = line.slice(0, eq).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(eq + 1).trim()]);
  }
  return sections;
}

/** KEY=value lines (an EnvironmentFile, or the values of Environment=), comments and blanks skipped. */
function parseEnv(lines: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines.map((l) => l.trim())) {
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    env[line.slice(0, eq)] = line.slice(eq + 1).replace(/^"(.*)"$/, '$1');
  }
  return env;
}

const unit = parseUnit(readFileSync(path.join(root, 'deploy/messenger.service'), 'utf8'));
const service = unit.get('Service') ?? new Map<string, string[]>();
const one = (key: string): string => {
  const values = service.get(key) ?? [];
  expect(values, key).toHaveLength(1);
  return values[0] as string;
};
const unitEnv = parseEnv(service.get('Environment') ?? []);
const exampleEnv = parseEnv(readFileSync(path.join(root, 'deploy/messenger.env.example'), 'utf8').split('\n'));

const dirs: string[] = [];
let pid: number | undefined;
beforeAll(async () => {
  await buildServerBundle();
}, 60_000);
afterAll(() => {
  if (pid !== undefined && isRunning(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('deploy/messenger.service', () => {
  it('runs the bundle with the Node.js npm ci installed, stops it with SIGTERM after a drain’s time, and may write DATA_DIR only', () => {
    expect(one('ExecStart')).toMatch(/^\/opt\/messenger\/node_modules\/\.bin\/node dist-server\/start\.js$/);
    expect(one('KillSignal')).toBe('SIGTERM');
    expect(unitEnv.NODE_ENV).toBe('production');
    // The stop waits longer than the drain may take, with the example's value and the default.
    const drainMs = configFromEnv({ ...exampleEnv, ...unitEnv }).drainTimeoutMs;
    expect(Number(one('TimeoutStopSec')) * 1000).toBeGreaterThan(Math.max(drainMs, configFromEnv({}).drainTimeoutMs));
    expect(one('EnvironmentFile')).toBe('/etc/messenger/messenger.env');
    expect(one('NoNewPrivileges')).toBe('yes');
    expect(one('ProtectSystem')).toBe('strict');
    expect(one('ReadWritePaths').split(/\s+/)).toContain(unitEnv.DATA_DIR);
    expect(unitEnv.DATA_DIR).toBe(`/var/lib/${one('StateDirectory')}`);
    expect(one('User')).not.toBe('root');
    expect(unit.get('Install')?.get('WantedBy')).toEqual(['multi-user.target']);
  });

  it('its ExecStart serves /readyz without the demo world, and SIGTERM drains it', async () => {
    const [unitCommand = '', ...args] = one('ExecStart').split(/\s+/);
    // The unit's /opt/messenger is this checkout.
    const command = unitCommand.replace(/^\/opt\/messenger\//, `${root}/`);
    const cwd = one('WorkingDirectory') === '/opt/messenger' ? root : one('WorkingDirectory');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-systemd-'));
    dirs.push(dataDir);
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...unitEnv,
      ...exampleEnv,
      // This machine's stand-ins for the unit's paths and the public port.
      DATA_DIR: dataDir,
      PORT: '0',
      METRICS_PORT: '0',
      HOST: '127.0.0.1',
    };
    const server = ServerProcess.spawn(existsSync(command) ? command : process.execPath, args, { cwd, env });
    const url = await server.url();
    pid = server.child.pid;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    // NODE_ENV=production: no demo accounts in a real database.
    expect(server.output).not.toContain('Demo world seeded');
    server.child.kill(one('KillSignal') as NodeJS.Signals);
    expect(await server.exited).toBe(0);
    expect(server.output).toContain('SIGTERM: draining');
    expect(await answers(`${url}/readyz`)).toBe(false);
  }, 60_000);
});
