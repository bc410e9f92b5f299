import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../server/app';
import { ConfigError, configFromEnv, testConfig } from '../../server/config';
import { namesMetrics } from '../../server/ops/metricsPath';
import { METRICS_SPELLINGS, rawRequest } from '../support/metricsSpellings';
import { startTestServer, type TestServer } from '../support/server';

/**
 * Metrics off the public port (docs/server.md, "Metrics"): the app's port has no /metrics in any spelling a
 * proxy might let through, and a listener of the node's own (METRICS_PORT, loopback unless METRICS_HOST and
 * METRICS_TOKEN say otherwise) serves them.
 */


/** Text only a metrics answer has. */
const looksLikeMetrics = (body: string) => /process_cpu|http_request_duration|messenger_websocket|# HELP|# TYPE/.test(body);

describe('the app port', () => {
  let s: TestServer;
  let clientDir: string;

  beforeAll(async () => {
    // A client build, so the SPA fallback (every unknown GET answers the app's page) is in play.
    clientDir = mkdtempSync(path.join(tmpdir(), 'messenger-metrics-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>Messenger</title>');
    writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log(1)');
    s = await startTestServer({ clientDir });
  });
  afterAll(async () => {
    await s.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it.each(METRICS_SPELLINGS)('answers %s with 404 and no metrics', async (target) => {
    const answer = await rawRequest(s.url, target);
    expect(answer.status).toBe(404);
    expect(looksLikeMetrics(answer.body)).toBe(false);
  });

  it('has no metrics for HEAD or POST either, with or without the token', async () => {
    for (const method of ['HEAD', 'POST']) {
      const answer = await rawRequest(s.url, '/metrics', method, { Authorization: 'Bearer anything' });
      expect(answer.status).toBe(404);
      expect(looksLikeMetrics(answer.body)).toBe(false);
    }
  });

  it('still serves the app, its files and its health there', async () => {
    expect((await rawRequest(s.url, '/inbox')).body).toContain('<title>Messenger</title>');
    expect((await rawRequest(s.url, '/metrics-and-more')).status).toBe(200);
    expect((await rawRequest(s.url, '/assets/app.js')).status).toBe(200);
    expect((await rawRequest(s.url, '/healthz')).status).toBe(200);
    expect((await rawRequest(s.url, '/readyz')).status).toBe(200);
    // In the latency histogram, the client's files are one route and the app page's fallback another.
    const text = await (await fetch(`${s.server.metricsUrl}/metrics`)).text();
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="client_file",status_class="2xx"\} 1$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="GET",route="unmatched",status_class="2xx"\} 2$/m);
    expect(text).not.toContain('app.js');
  });

  it('knows every spelling for what it is, and nothing else', () => {
    for (const target of METRICS_SPELLINGS) expect(namesMetrics(target), target).toBe(true);
    for (const target of ['/', '/metricsx', '/v1/metrics', '/metrics/x', '/inbox', '/%zz', '/metric']) {
      expect(namesMetrics(target), target).toBe(false);
    }
  });
});

describe('the metrics listener', () => {
  it('serves /metrics, /healthz and /readyz on a loopback port of its own, and nothing else', async () => {
    const s = await startTestServer();
    try {
      const metricsUrl = s.server.metricsUrl as string;
      expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
      expect(new URL(metricsUrl).port).not.toBe(new URL(s.url).port);
      const metrics = await fetch(`${metricsUrl}/metrics`);
      expect(metrics.status).toBe(200);
      expect(metrics.headers.get('content-type')).toContain('text/plain');
      expect(looksLikeMetrics(await metrics.text())).toBe(true);
      expect(await (await fetch(`${metricsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(await (await fetch(`${metricsUrl}/readyz`)).json()).toMatchObject({ status: 'ready' });
      expect((await fetch(`${metricsUrl}/v1/countries`)).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it('wants the bearer token when METRICS_TOKEN is set', async () => {
    const s = await startTestServer({ metricsToken: 'sekret' });
    try {
      const metrics = `${s.server.metricsUrl}/metrics`;
      expect((await fetch(metrics)).status).toBe(401);
      expect((await fetch(metrics, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
      const ok = await fetch(metrics, { headers: { Authorization: 'Bearer sekret' } });
      expect(ok.status).toBe(200);
      expect(looksLikeMetrics(await ok.text())).toBe(true);
      // Still none on the app's port, token or not.
      expect((await rawRequest(s.url, '/metrics', 'GET', { Authorization: 'Bearer sekret' })).status).toBe(404);
    } finally {
      await s.close();
    }
  });

  it('reads METRICS_PORT and METRICS_HOST, loopback and 9464 by default, and refuses another address without METRICS_TOKEN', () => {
    const defaults = configFromEnv({});
    expect(defaults.metricsPort).toBe(9464);
    expect(defaults.metricsHost).toBe('127.0.0.1');
    expect(configFromEnv({ METRICS_PORT: '9500', METRICS_HOST: '::1' })).toMatchObject({ metricsPort: 9500, metricsHost: '::1' });
    expect(() => configFromEnv({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => configFromEnv({ METRICS_HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => configFromEnv({ METRICS_HOST: '10.0.0.5' })).toThrow(/METRICS_HOST=10\.0\.0\.5 is not loopback: set METRICS_TOKEN/);
    expect(configFromEnv({ METRICS_HOST: '0.0.0.0', METRICS_TOKEN: 't' }).metricsHost).toBe('0.0.0.0');
    // Tests take any free port, so many servers run side by side.
    expect(testConfig('/tmp/x').metricsPort).toBe(0);
  });

  it('refuses to build a server whose metrics would listen beyond loopback without a token', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-metrics-'));
    try {
      await expect(buildServer(testConfig(dataDir, { metricsHost: '0.0.0.0' }), { logStream: false })).rejects.toThrow(/METRICS_TOKEN/);
      // Before it opened anything.
      expect(existsSync(path.join(dataDir, 'messenger.db'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
