import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { WebSocket } from 'ws';
import type { ApiEnvelope } from '../../src/protocol/envelope';
import type { ServerFrame } from '../../src/protocol/socket';
import { type BuiltServer, buildServer } from '../../server/app';
import type { Clock } from '../../server/clock';
import { type ServerConfig, testConfig } from '../../server/config';
import type { CspReport } from '../../server/http/cspReports';
import { recordCspReport } from './cspReports';
import { testDatabaseUrl } from './postgresSchema';

export const TEST_PIN = '1234';

export interface TestServer {
  url: string;
  dataDir: string;
  server: BuiltServer;
  /** The Content-Security-Policy violation reports it received (also checked after each e2e test). */
  cspReports: readonly CspReport[];
  close(): Promise<void>;
}

/** A real reference server on an ephemeral loopback port with a fresh data directory. */
export async function startTestServer(
  overrides: Partial<ServerConfig> = {},
  options: { clock?: Clock; keepDataDir?: string } = {},
): Promise<TestServer> {
  const dataDir = options.keepDataDir ?? mkdtempSync(path.join(tmpdir(), 'messenger-test-'));
  const cspReports: CspReport[] = [];
  const databaseUrl = await testDatabaseUrl(dataDir);
  const config = testConfig(dataDir, { ...(databaseUrl ? { databaseUrl } : {}), ...overrides });
  const server = await buildServer(config, {
    ...(options.clock ? { clock: options.clock } : {}),
    logStream: false,
    onCspReport: (report) => {
      cspReports.push(report);
      recordCspReport(report);
    },
  });
  const url = await server.listen();
  return {
    url,
    dataDir,
    server,
    cspReports,
    async close() {
      await server.close();
      if (!options.keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A reference server for the tests of the file (or describe block) this is called in: started before
 * them, closed after them. The object it returns stands for that server; read it in tests and hooks.
 */
export function useTestServer(overrides: Partial<ServerConfig> = {}, options: { clock?: Clock } = {}): TestServer {
  let started: TestServer | null = null;
  const current = (): TestServer => {
    if (!started) throw new Error('the test server runs only during the tests (read it in a test or hook)');
    return started;
  };
  beforeAll(async () => {
    started = await startTestServer(overrides, options);
  });
  afterAll(async () => {
    await started?.close();
    started = null;
  });
  return {
    get url() {
      return current().url;
    },
    get dataDir() {
      return current().dataDir;
    },
    get server() {
      return current().server;
    },
    get cspReports() {
      return current().cspReports;
    },
    close: () => current().close(),
  };
}

export interface CallOptions {
  token?: string;
  json?: unknown;
  form?: Record<string, string | number | boolean>;
  body?: BodyInit;
  headers?: Record<string, string>;
}

export interface CallResult<T> {
  status: number;
  body: ApiEnvelope<T>;
  /** `data` of a success; throws with the server's message otherwise. */
  data: T;
}

/** One HTTP call to the API, returning status and envelope. */
export async function call<T = unknown>(
  base: string,
  method: string,
  route: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = { 'Client-Version': '1', 'x-features': '15', ...options.headers };
  if (options.token) headers['Auth-Token'] = options.token;
  let body: BodyInit | undefined = options.body;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(Object.entries(options.form).map(([k, v]) => [k, String(v)])).toString();
  }
  const response = await fetch(base + route, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await response.text();
  let parsed: ApiEnvelope<T>;
  try {
    parsed = JSON.parse(text) as ApiEnvelope<T>;
  } catch {
    throw new Error(`${method} ${route}: ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`);
  }
  return {
    status: response.status,
    body: parsed,
    get data(): T {
      if (!parsed.success) throw new Error(`${method} ${route}: ${parsed.status} ${parsed.message}`);
      return parsed.data;
    },
  };
}

export interface TestUser {
  id: number;
  token: string;
  phone: string;
}

let phoneCounter = 0;
/** A fresh valid Swedish mobile number per call (Indonesian with country '62'). */
export function nextPhone(country: '46' | '62' = '46'): string {
  phoneCounter += 1;
  const n = String(process.pid % 1000).padStart(3, '0') + String(phoneCounter).padStart(4, '0');
  return country === '46' ? `+4670${n}` : `+62812${n}00`;
}

/** Signs a new user in through the real PIN flow and registers a nickname. */
export async function signUp(base: string, nickname = 'Tester', country: '46' | '62' = '46'): Promise<TestUser> {
  const phone = nextPhone(country);
  await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
  const { token, user_id } = (
    await call<{ token: string; user_id: number }>(base, 'POST', '/v1/auth/pin/confirm', {
      form: { phone_nr: phone, pin: TEST_PIN },
    })
  ).data;
  if (nickname) await call(base, 'POST', '/v2/me/register', { token, json: { name: nickname } }).then((r) => r.data);
  return { id: user_id, token, phone };
}

/**
 * Users signed up on `s` before the tests of this file (after `s` started, as hooks run in order), one per
 * nickname, in order: the objects are filled in place, so read their fields in tests and hooks.
 */
export function useUsers<const N extends readonly string[]>(
  s: Pick<TestServer, 'url'>,
  ...nicknames: N
): { [K in keyof N]: TestUser } {
  const users: TestUser[] = nicknames.map(() => ({ id: 0, token: '', phone: '' }));
  beforeAll(async () => {
    for (const [i, nickname] of nicknames.entries()) Object.assign(users[i] as TestUser, await signUp(s.url, nickname));
  });
  return users as { [K in keyof N]: TestUser };
}

/** A websocket client that records every frame and answers pings unless told not to. */
export class TestSocket {
  readonly frames: ServerFrame[] = [];
  private waiters: { match: (f: ServerFrame) => boolean; resolve: (f: ServerFrame) => void }[] = [];
  readonly ws: WebSocket;
  readonly closed: Promise<number>;

  constructor(base: string, token: string, lastId = 0, options: { answerPings?: boolean } = {}, epoch?: string) {
    const epochParam = epoch ? `&epoch=${encodeURIComponent(epoch)}` : '';
    const url = `${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}&last_message_id=${lastId}&protocol=7&deviceType=webclient${epochParam}`;
    this.ws = new WebSocket(url);
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
    this.ws.on('error', () => undefined);
    this.ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as ServerFrame;
      this.frames.push(frame);
      if (frame.action === 'ping' && options.answerPings !== false) this.ws.send(JSON.stringify({ action: 'pong' }));
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(frame)) return true;
        w.resolve(frame);
        return false;
      });
    });
  }

  /** Resolves with the first frame (already received or coming) that matches. */
  next(match: (f: ServerFrame) => boolean, timeoutMs = 5000): Promise<ServerFrame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a frame')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  loaded(): Promise<ServerFrame> {
    return this.next((f) => f.action === 'socket_loaded');
  }

  actions(): string[] {
    return this.frames.map((f) => f.action).filter((a) => a !== 'ping' && a !== 'socket_loaded');
  }

  close(): void {
    this.ws.close();
  }
}

/** The status a websocket upgrade with these headers got: 101 when the socket opened, 0 when it failed. */
export function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    // After an unexpected response too: the first answer stands.
    ws.on('error', () => resolve(0));
  });
}
