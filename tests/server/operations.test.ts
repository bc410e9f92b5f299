import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type BuiltServer, buildServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { SOCKET_CLOSE_RESTART } from '../../src/protocol/constants';
import { insertConversation } from '../support/fixtures';
import { call, signUp, startTestServer, TestSocket, useTestServer, useUsers } from '../support/server';

/**
 * Issue 21, "Operable": liveness and readiness a load balancer can trust, Prometheus metrics, and a drain
 * on SIGTERM that moves clients to another node at once and lets requests in flight finish.
 */

/** One GET over a connection of its own, keeping the status, headers and body (fetch hides `Connection`). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A server with one more route, added before it listens, that answers after `ms`: a request in flight the
 * drain must wait for.
 */
async function serverWithSlowRoute(ms: number): Promise<{ url: string; server: BuiltServer; close(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-drain-'));
  const server = await buildServer(testConfig(dataDir), { logStream: false });
  server.app.get('/test/slow', { config: { public: true } }, async () => {
    await new Promise((r) => setTimeout(r, ms));
    return { done: true };
  });
  const url = await server.listen();
  return {
    url,
    server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const metricValue = (text: string, line: string): number => {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? Number.NaN : Number(found.slice(line.length + 1));
};

describe('health and readiness', () => {
  const s = useTestServer();

  it('answers /healthz and /readyz 200 with what it checked, to GET and HEAD, never cached', async () => {
    const health = await fetch(`${s.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.headers.get('cache-control')).toBe('no-store');
    expect(await ready.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    // The old /health answered the app's HTML; it is the liveness answer now.
    expect(await (await fetch(`${s.url}/health`)).json()).toEqual({ status: 'ok' });
    for (const path of ['/healthz', '/health', '/readyz']) {
      expect((await fetch(`${s.url}${path}`, { method: 'HEAD' })).status).toBe(200);
    }
  });

  it('answers /readyz 503 naming the database when the database cannot be reached, while /healthz stays 200', async () => {
    const own = await startTestServer();
    try {
      await own.server.ctx.db.close();
      const ready = await fetch(`${own.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({ status: 'unavailable', checks: { database: 'failed' } });
      expect((await fetch(`${own.url}/healthz`)).status).toBe(200);
    } finally {
      await own.server.app.close();
    }
  });
});

describe('metrics', () => {
  const s = useTestServer();
  const [anna, bo] = useUsers(s, 'Anna', 'Bo');

  it('counts sockets, stored events, their delivery, database statements and answers in Prometheus text', async () => {
    const socket = new TestSocket(s.url, bo.token);
    await socket.loaded();
    const { id } = await insertConversation(s.server.ctx.db, { members: [anna.id, bo.id] });
    await call(s.url, 'POST', `/v2/conversations/${id}/messages`, { token: anna.token, json: { client_id: 1, message: 'hej' } }).then((r) => r.data);
    await socket.next((f) => f.action === 'conversation_message');

    const response = await fetch(`${s.server.metricsUrl}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(metricValue(text, 'messenger_websocket_connections')).toBe(1);
    expect(metricValue(text, 'messenger_draining')).toBe(0);
    // Anna's and Bo's events of the one message.
    expect(metricValue(text, 'messenger_events_stored_total{action="conversation_message"}')).toBe(2);
    // Delivered once: only Bo had a socket.
    expect(metricValue(text, 'messenger_event_delivery_seconds_count')).toBe(1);
    expect(metricValue(text, 'messenger_database_statement_seconds_count{kind="write"}')).toBeGreaterThan(0);
    expect(metricValue(text, 'messenger_database_statement_seconds_count{kind="read"}')).toBeGreaterThan(0);
    expect(metricValue(text, 'messenger_http_answers_total{status="2xx"}')).toBeGreaterThan(0);
    // The process's own, under their standard names (unprefixed).
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(text).not.toContain('messenger_process_');
    socket.close();
  });

  it('counts the refusals of each limit', async () => {
    const phone = '+46701234999';
    for (let i = 0; i < 6; i++) await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    const text = await (await fetch(`${s.server.metricsUrl}/metrics`)).text();
    expect(metricValue(text, 'messenger_limit_refusals_total{limit="pin_request"}')).toBe(1);
  });

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    const own = await startTestServer({ metricsToken: 'sekret' });
    try {
      const metrics = `${own.server.metricsUrl}/metrics`;
      expect((await fetch(metrics)).status).toBe(401);
      expect((await fetch(metrics, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(metrics, { headers: { Authorization: 'Bearer sekret' } });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('messenger_websocket_connections');
    } finally {
      await own.close();
    }
  });
});

describe('the drain (SIGTERM)', () => {
  it('closes every socket with the restart code, finishes the request in flight with Connection: close, refuses new connections, and stops', async () => {
    const s = await serverWithSlowRoute(400);
    try {
      const user = await signUp(s.url, 'Drained');
      const socket = new TestSocket(s.url, user.token);
      await socket.loaded();
      const slow = rawGet(`${s.url}/test/slow`);
      // The slow request is on its way before the drain starts.
      await new Promise((r) => setTimeout(r, 100));
      const drained = s.server.drain(5_000);
      expect(await socket.closed).toBe(SOCKET_CLOSE_RESTART);
      const ready = await s.server.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ status: 'draining' });
      const answer = await slow;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ done: true });
      expect(answer.headers.connection).toBe('close');
      await drained;
      await expect(rawGet(`${s.url}/healthz`)).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await s.close();
    }
  });

  it('cuts what is still in flight when the drain time is up, and stops within it', async () => {
    const s = await serverWithSlowRoute(10_000);
    try {
      const slow = rawGet(`${s.url}/test/slow`).then(
        () => 'answered',
        () => 'cut',
      );
      await new Promise((r) => setTimeout(r, 100));
      const started = performance.now();
      await s.server.drain(300);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(await slow).toBe('cut');
    } finally {
      await s.close();
    }
  });
});
