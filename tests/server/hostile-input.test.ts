import { Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type BuiltServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { MAX_PAIRS, parseForm } from '../../server/http/form';
import { testDatabaseUrl } from '../support/postgresSchema';
import { call, nextPhone, signUp, TestSocket } from '../support/server';

/** Sends raw bytes and resolves with the status line of the answer (or '' when the connection just closes). */
function raw(base: string, request: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let data = '';
    socket.setTimeout(5000, () => reject(new Error('no answer')));
    socket.on('data', (chunk) => (data += chunk.toString()));
    socket.on('close', () => resolve(data.split('\r\n')[0] ?? ''));
    socket.on('error', () => resolve(data.split('\r\n')[0] ?? ''));
    socket.connect(Number(port), hostname, () => socket.end(request));
  });
}

let server: BuiltServer;
let base: string;
let dataDir: string;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-hostile-'));
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  // PostgreSQL under the server-postgres project (a schema of its own), SQLite otherwise.
  const databaseUrl = await testDatabaseUrl(dataDir);
  server = await buildServer(testConfig(dataDir, databaseUrl ? { databaseUrl } : {}), {
    logStream,
    announcePin: () => undefined,
  });
  base = await server.listen();
});
afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile input', () => {
  it('answers a malformed websocket upgrade target with 400 and keeps serving', async () => {
    for (const target of ['//[', 'http://[/ws', '//a:99999/ws']) {
      const status = await raw(
        base,
        `GET ${target} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      expect(status).toMatch(/^HTTP\/1\.1 400/);
    }
    const user = await signUp(base, 'Still here');
    expect((await call(base, 'GET', '/v1/me', { token: user.token })).status).toBe(200);
  });

  it('parses a form with many appended fields in linear time and refuses more than the limit', async () => {
    const many = `${'x[]=1&'.repeat(MAX_PAIRS - 1)}phone_nr=1`;
    const started = performance.now();
    const parsed = parseForm(many);
    expect(performance.now() - started).toBeLessThan(500);
    expect(Array.isArray(parsed.x)).toBe(true);
    const tooMany = await call(base, 'POST', '/v1/auth/pin', {
      body: `${'x[]&'.repeat(30_000)}phone_nr=${encodeURIComponent(nextPhone())}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(tooMany.body).toEqual({ success: false, status: 400, message: `A form may have at most ${MAX_PAIRS} fields` });
  });

  it('answers a URL it cannot decode in the envelope without echoing it', async () => {
    const status = await raw(base, 'GET /v1/me%?token=SECRETSECRET HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(status).toMatch(/^HTTP\/1\.1 400/);
    const response = await fetch(`${base}/v1/me%25zz%?token=SECRETSECRET`).catch(() => undefined);
    if (response) {
      const text = await response.text();
      expect(text).not.toContain('SECRET');
    }
  });

  it('authenticates a route reached through a percent-encoded path', async () => {
    const user = await signUp(base, 'Encoded');
    const viaEncoded = await call<{ account: { id: number } }>(base, 'GET', '/%761/me', { token: user.token });
    expect(viaEncoded.data.account.id).toBe(user.id);
    expect((await call(base, 'GET', '/%761/me')).status).toBe(401);
  });

  it('logs no query string, so no spelling of the token key leaks', async () => {
    const user = await signUp(base, 'Spelling');
    await call(base, 'GET', `/v1/me?%74oken=${user.token}`, { token: user.token });
    const sock = new TestSocket(base, user.token);
    await sock.loaded();
    sock.close();
    expect(lines.join('')).not.toContain(user.token);
  });
});
