import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { type ServerConfig, testConfig } from '../../server/config';
import { routeTable } from '../../server/http/routeTable';
import { insertConversation } from '../support/fixtures';
import { testDatabaseUrl } from '../support/postgresSchema';
import { call, signUp, startTestServer } from '../support/server';

/**
 * What an operator watches (docs/server.md, "Metrics" and "Logs"): the answers' latency by route pattern, the
 * process's standard metrics, and a log of JSON lines that name the node and the client, with the probes'
 * request lines kept to debug level.
 */

interface LogLine {
  level: number;
  msg: string;
  node?: string;
  req?: { method: string; url: string; remoteAddress?: string };
  listener?: string;
}

/** A server whose log lines are kept, parsed (a line that is not JSON fails the test right there). */
async function loggedServer(overrides: Partial<ServerConfig>) {
  const lines: LogLine[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(text) as LogLine);
      done();
    },
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-log-'));
  const databaseUrl = await testDatabaseUrl(dataDir);
  const server = await buildServer(testConfig(dataDir, { ...(databaseUrl ? { databaseUrl } : {}), ...overrides }), { logStream });
  const url = await server.listen();
  return {
    url,
    server,
    lines,
    /** The request lines of `path`, from either listener. */
    requestLines: (path: string) => lines.filter((l) => l.req?.url === path),
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `name{labels} value` lines of a metrics text, with their labels parsed. */
function series(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const found: { labels: Record<string, string>; value: number }[] = [];
  for (const m of text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))) {
    const labels = Object.fromEntries([...(m[1] as string).matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    found.push({ labels: labels as Record<string, string>, value: Number(m[2]) });
  }
  return found;
}

describe('request latency', () => {
  it('is a histogram by method, route pattern (never an id) and status class, unmatched routes under one label', async () => {
    const s = await startTestServer();
    try {
      const anna = await signUp(s.url, 'Anna');
      const bo = await signUp(s.url, 'Bo');
      const first = await insertConversation(s.server.ctx.db, { members: [anna.id, bo.id] });
      const second = await insertConversation(s.server.ctx.db, { members: [anna.id, bo.id] });
      for (const { id } of [first, second]) {
        expect((await call(s.url, 'GET', `/v2/conversations/${id}/messages`, { token: anna.token })).status).toBe(200);
      }
      expect((await call(s.url, 'GET', '/v1/nothing-here/12345', { token: anna.token })).status).toBe(404);
      expect((await call(s.url, 'GET', '/v1/nothing-else/67890', { token: anna.token })).status).toBe(404);

      const text = await (await fetch(`${s.server.metricsUrl}/metrics`)).text();
      const counts = series(text, 'http_request_duration_seconds_count');
      const count = (labels: Record<string, string>) => counts.find((c) => JSON.stringify(c.labels) === JSON.stringify(labels))?.value;
      expect(count({ method: 'GET', route: '/v2/conversations/:id/messages', status_class: '2xx' })).toBe(2);
      expect(count({ method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(2);
      expect(count({ method: 'POST', route: '/v1/auth/pin/confirm', status_class: '2xx' })).toBe(2);
      // Every route label is a pattern of the route table (or the one unmatched label): no raw URL, no id.
      const patterns = new Set(routeTable(s.server.app).map((r) => r.url));
      for (const { labels } of counts) expect(labels.route === 'unmatched' || patterns.has(labels.route as string), labels.route).toBe(true);
      expect(text).not.toMatch(/route="[^"]*(12345|67890|\/\d+)/);
      expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v2\/conversations\/:id\/messages",status_class="2xx"\} \d+$/m);
      // The process's standard metrics under their standard names, unprefixed.
      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        expect(text).toMatch(new RegExp(`^${name} `, 'm'));
      }
      expect(text).not.toMatch(/^messenger_(process|nodejs)_/m);
    } finally {
      await s.close();
    }
  });
});

describe('the log', () => {
  it('is JSON lines naming the node and the client address, X-Forwarded-For’s under TRUST_PROXY', async () => {
    const behind = await loggedServer({ nodeId: 'node-7', trustProxy: '127.0.0.1' });
    try {
      await fetch(`${behind.url}/v1/countries`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
      const [incoming] = behind.requestLines('/v1/countries');
      expect(incoming).toMatchObject({ level: 30, msg: 'incoming request', node: 'node-7', req: { method: 'GET', remoteAddress: '203.0.113.9' } });
      expect(behind.lines.every((l) => l.node === 'node-7')).toBe(true);
    } finally {
      await behind.close();
    }
    const alone = await loggedServer({ nodeId: 'node-8' });
    try {
      await fetch(`${alone.url}/v1/countries`, { headers: { 'X-Forwarded-For': '203.0.113.9' } });
      // Not behind a trusted proxy: the socket's address, whatever the header says.
      expect(alone.requestLines('/v1/countries')[0]?.req?.remoteAddress).toBe('127.0.0.1');
    } finally {
      await alone.close();
    }
  });

  it('keeps the probes (/healthz, /readyz, /metrics) at debug level, on both listeners', async () => {
    const probe = async (s: Awaited<ReturnType<typeof loggedServer>>) => {
      for (const base of [s.url, s.server.metricsUrl as string]) {
        for (const p of ['/healthz', '/readyz']) expect((await fetch(base + p)).status).toBe(200);
      }
      expect((await fetch(`${s.server.metricsUrl}/metrics`)).status).toBe(200);
      await fetch(`${s.url}/v1/countries`);
    };
    const info = await loggedServer({ logLevel: 'info' });
    try {
      await probe(info);
      for (const p of ['/healthz', '/readyz', '/metrics']) expect(info.requestLines(p)).toEqual([]);
      expect(info.requestLines('/v1/countries').length).toBeGreaterThan(0);
    } finally {
      await info.close();
    }
    const debug = await loggedServer({ logLevel: 'debug' });
    try {
      await probe(debug);
      for (const p of ['/healthz', '/readyz']) {
        const lines = debug.requestLines(p);
        expect(lines.length).toBe(2);
        expect(lines.every((l) => l.level === 20)).toBe(true);
      }
      expect(debug.requestLines('/metrics')).toMatchObject([{ level: 20, listener: 'metrics' }]);
      // Everything else stays at info.
      expect(debug.requestLines('/v1/countries')[0]?.level).toBe(30);
    } finally {
      await debug.close();
    }
  });

  it('has `npm start`’s own lines as JSON too: the banner and the drain on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-start-'));
    const root = path.resolve(import.meta.dirname, '../..');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      METRICS_PORT: '0',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      SKIP_CLIENT_BUILD: '1',
      NODE_ID: 'node-start',
      MESSENGER_DEV_PIN: '1234',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/start.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: string[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(`${code ?? signal}`)));
    try {
      await new Promise<void>((resolve, reject) => {
        let partial = '';
        child.stdout.on('data', (chunk: Buffer) => {
          const parts = (partial + chunk.toString()).split('\n');
          partial = parts.pop() ?? '';
          stdout.push(...parts.filter(Boolean));
          if (parts.some((l) => l.includes('Messenger is running at'))) resolve();
        });
        void exited.then((code) => reject(new Error(`start.ts exited with ${code}: ${stderr}`)));
      });
      // An answer means the node's start finished, signal handlers included (they follow the banner in the same turn).
      const started = JSON.parse(stdout.find((l) => l.includes('Messenger is running at')) as string) as { url: string };
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await exited, `${stdout.join('\n')}\n${stderr}`).toBe('0');
      const lines = stdout.map((l) => JSON.parse(l) as LogLine & { url?: string; metricsUrl?: string });
      expect(lines.every((l) => l.node === 'node-start')).toBe(true);
      const banner = lines.find((l) => l.msg.startsWith('Messenger is running at'));
      expect(banner?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(banner?.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.some((l) => l.msg.includes('MESSENGER_DEV_PIN is set') && !l.msg.includes('1234'))).toBe(true);
      expect(lines.some((l) => l.msg.startsWith('SIGTERM: draining'))).toBe(true);
      expect(lines.some((l) => l.msg === 'draining')).toBe(true);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
