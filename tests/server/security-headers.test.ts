import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { ConfigError, configFromEnv, testConfig } from '../../server/config';
import { BUILD_CONNECT_SRC_FILE, readBuildConnectSrc } from '../../server/http/buildConnectSrc';
import { CSP_REPORT_PATH } from '../../server/http/cspReports';
import { call, useTestServer, useUsers } from '../support/server';

/**
 * Issue 12: every HTML and static answer (and every API answer) carries a Content-Security-Policy under
 * which only the app's own scripts run and nothing frames it, and the other headers of the issue.
 * What a browser makes of them is tested end to end (tests/e2e/security-headers.test.ts).
 */

const clientDir = mkdtempSync(path.join(tmpdir(), 'messenger-headers-client-'));
mkdirSync(path.join(clientDir, 'assets'));
writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
writeFileSync(path.join(clientDir, 'assets/app.js'), 'console.log(1)');
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const QA = 'https://qa.messenger.example';
const SENTRY = 'https://o1.ingest.sentry.io';
// What the build says it calls (issue 20: scripts/vite-connect-src.ts writes it); QA is named by both.
writeFileSync(path.join(clientDir, BUILD_CONNECT_SRC_FILE), JSON.stringify({ connectSrc: [SENTRY, QA] }));
const s = useTestServer({ clientDir, cspConnectSrc: [QA, 'wss://qa-ws.messenger.example'] });
const [user] = useUsers(s, 'Header');

/** The policy as directive → sources. */
function policy(header: string | null): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

describe('security headers', () => {
  it('are on the app’s page, its client routes and its static files', async () => {
    for (const route of ['/', '/chats/12', '/assets/app.js']) {
      const answer = await fetch(s.url + route);
      expect(answer.status).toBe(200);
      const csp = policy(answer.headers.get('content-security-policy'));
      const host = new URL(s.url).host;
      expect(csp.get('default-src')).toEqual(["'self'"]);
      expect(csp.get('script-src')).toEqual(["'self'"]);
      expect(csp.get('style-src')).toEqual(["'self'"]);
      expect(csp.get('object-src')).toEqual(["'none'"]);
      expect(csp.get('base-uri')).toEqual(["'none'"]);
      expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
      expect(csp.get('img-src')).toEqual(["'self'", 'blob:', 'data:']);
      expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
      expect(csp.get('connect-src')).toEqual([
        "'self'",
        `ws://${host}`,
        `wss://${host}`,
        QA,
        'wss://qa-ws.messenger.example',
        SENTRY,
      ]);
      expect(csp.get('report-uri')).toEqual([CSP_REPORT_PATH]);
      expect(csp.has('upgrade-insecure-requests')).toBe(false);
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-frame-options')).toBe('DENY');
      expect(answer.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      const permissions = answer.headers.get('permissions-policy') ?? '';
      for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb']) {
        expect(permissions).toContain(`${feature}=()`);
      }
      // Copying a message and the media viewer need these.
      expect(permissions).not.toMatch(/clipboard-write|fullscreen/);
    }
  });

  it('are on API answers, refusals included', async () => {
    const refused = await fetch(s.url + '/v2/conversations');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(refused.headers.get('x-frame-options')).toBe('DENY');
  });

  it('name the socket of the host the page came from, and nothing a Host header smuggles in', async () => {
    const { request } = await import('node:http');
    const get = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const { port } = new URL(s.url);
        request({ host: '127.0.0.1', port, path: '/', headers: { host } }, (answer) => {
          answer.resume();
          resolve(String(answer.headers['content-security-policy']));
        })
          .on('error', reject)
          .end();
      });
    expect(policy(await get('chat.example.org:8443')).get('connect-src')).toContain('wss://chat.example.org:8443');
    const smuggled = policy(await get("evil.example; script-src 'unsafe-inline'"));
    expect(smuggled.get('script-src')).toEqual(["'self'"]);
    expect([...smuggled.get('connect-src')!].join(' ')).not.toContain('evil');
  });

  it('leave a file its own sandboxing policy', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex');
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
    const { file } = (await call<{ file: { url: string } }>(s.url, 'POST', '/v2/filestorage/file', { token: user.token, body }))
      .data;
    const served = await fetch(s.url + file.url);
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(served.headers.get('x-frame-options')).toBe('DENY');
  });
});

describe('violation reports', () => {
  it('are taken at the policy’s report-uri and passed on without their URLs’ queries', async () => {
    const before = s.cspReports.length;
    const answer = await fetch(s.url + CSP_REPORT_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/csp-report' },
      body: JSON.stringify({
        'csp-report': {
          'document-uri': `${s.url}/chats/3?x=1`,
          'violated-directive': 'connect-src',
          'effective-directive': 'connect-src',
          'blocked-uri': 'wss://elsewhere.example/ws?token=secret',
          'line-number': 12,
        },
      }),
    });
    expect(answer.status).toBe(204);
    expect(s.cspReports.slice(before)).toEqual([
      {
        documentUri: `${s.url}/chats/3`,
        violatedDirective: 'connect-src',
        blockedUri: 'wss://elsewhere.example/ws',
        sourceFile: '',
        lineNumber: 12,
        sample: '',
      },
    ]);
  });

  it('answer anything else with 204 or a 4xx, and keep nothing of it', async () => {
    const before = s.cspReports.length;
    const post = (type: string, body: string) =>
      fetch(s.url + CSP_REPORT_PATH, { method: 'POST', headers: { 'Content-Type': type }, body });
    expect((await post('application/csp-report', 'not json')).status).toBe(204);
    expect((await post('application/csp-report', '{"other": 1}')).status).toBe(204);
    expect((await post('application/csp-report', JSON.stringify({ 'csp-report': 'x'.repeat(20_000) }))).status).toBe(413);
    expect((await post('text/plain', 'hello')).status).toBe(204);
    expect(s.cspReports.length).toBe(before);
  });
});

describe('configuration', () => {
  it('takes connect-src from CSP_CONNECT_SRC, as origins, and never from build variables in its own environment', () => {
    const config = configFromEnv({
      CSP_CONNECT_SRC: 'https://api.example.com/v1, wss://socket.example.com',
      // Build variables: what the served build needs comes from the build (connect-src.json), not from here.
      VITE_QA_API_BASE: 'https://qa.example.com/api/',
      VITE_SENTRY_DSN: 'https://key@o1.ingest.sentry.io/42',
    });
    expect(config.cspConnectSrc).toEqual(['https://api.example.com', 'wss://socket.example.com']);
    expect(configFromEnv({}).cspConnectSrc).toEqual([]);
    expect(configFromEnv({ VITE_SENTRY_DSN: 'not an address' }).cspConnectSrc).toEqual([]);
  });

  it('refuses what is no address, so nothing else reaches the policy', () => {
    expect(() => configFromEnv({ CSP_CONNECT_SRC: "https://a.example;script-src 'unsafe-inline'" })).toThrow(ConfigError);
    expect(() => configFromEnv({ CSP_CONNECT_SRC: "'unsafe-eval'" })).toThrow(ConfigError);
    expect(() => configFromEnv({ CSP_CONNECT_SRC: 'ftp://files.example' })).toThrow(ConfigError);
    expect(() => configFromEnv({ ALLOWED_ORIGINS: 'ws://a.example' })).toThrow(ConfigError);
  });
});

describe('the build’s connect-src.json (issue 20)', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  /** A client folder whose connect-src.json holds `text` (none when undefined). */
  function build(text: string | undefined): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'messenger-connect-src-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
    if (text !== undefined) writeFileSync(path.join(dir, BUILD_CONNECT_SRC_FILE), text);
    return dir;
  }

  it('gives its origins; a build without one (or no client) adds none', () => {
    const origins = ['https://o1.ingest.sentry.io', 'http://127.0.0.1:9000', 'wss://qa.example.com:8443'];
    expect(readBuildConnectSrc(build(JSON.stringify({ connectSrc: origins })))).toEqual(origins);
    expect(readBuildConnectSrc(build(JSON.stringify({ connectSrc: [] })))).toEqual([]);
    expect(readBuildConnectSrc(build(undefined))).toEqual([]);
    expect(readBuildConnectSrc(undefined)).toEqual([]);
  });

  it('refuses a malformed file with a message naming it: nothing of it reaches the policy', () => {
    const malformed = [
      '{"connectSrc": ["https://a.example"',
      '',
      'null',
      '["https://a.example"]',
      '{"connectSrc": "https://a.example"}',
      '{"connect_src": ["https://a.example"]}',
      '{"connectSrc": [42]}',
      `{"connectSrc": ["https://a.example; script-src 'unsafe-inline'"]}`,
      '{"connectSrc": ["https://a.example https://b.example"]}',
      '{"connectSrc": ["https://a.example/path"]}',
      '{"connectSrc": ["ftp://files.example"]}',
      `{"connectSrc": ["'unsafe-eval'"]}`,
    ];
    for (const text of malformed) {
      const dir = build(text);
      const file = path.join(dir, BUILD_CONNECT_SRC_FILE);
      expect(() => readBuildConnectSrc(dir), text).toThrow(ConfigError);
      expect(() => readBuildConnectSrc(dir), text).toThrow(`${file} is malformed`);
    }
  });

  it('makes a server serving such a build refuse to start, before it opens its database', async () => {
    const dir = build('{"connectSrc": ["https://a.example;"]}');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-connect-src-data-'));
    dirs.push(dataDir);
    await expect(buildServer(testConfig(dataDir, { clientDir: dir }), { logStream: false })).rejects.toThrow(
      `${path.join(dir, BUILD_CONNECT_SRC_FILE)} is malformed`,
    );
    expect(existsSync(path.join(dataDir, 'messenger.db'))).toBe(false);
  });

  it('is added to CSP_CONNECT_SRC in the policy of a server serving that build', async () => {
    const dir = build(JSON.stringify({ connectSrc: ['http://127.0.0.1:9', 'https://api.example.com'] }));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-connect-src-data-'));
    dirs.push(dataDir);
    const { cspConnectSrc } = configFromEnv({ CSP_CONNECT_SRC: 'https://api.example.com' });
    const server = await buildServer(testConfig(dataDir, { clientDir: dir, cspConnectSrc }), { logStream: false });
    try {
      const url = await server.listen();
      const connectSrc = policy((await fetch(url + '/')).headers.get('content-security-policy')).get('connect-src');
      expect(connectSrc?.slice(3)).toEqual(['https://api.example.com', 'http://127.0.0.1:9']);
    } finally {
      await server.close();
    }
  });
});
