import type { ResolvedConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { BUILD_CONNECT_SRC_FILE } from '../../server/http/cspOrigins';
import { buildConnectSrc, connectSrcPlugin } from '../../scripts/vite-connect-src';

/**
 * Issue 20: a build writes the origins it calls (its error reporting, its debug screen's QA preset) into its
 * output, for the Content-Security-Policy of whichever server serves it (tests/server/security-headers.test.ts
 * reads such a file; tests/e2e/error-reporting.test.ts builds and serves one).
 */
describe('the origins a build writes into connect-src.json', () => {
  it('are the DSN’s host and the QA preset’s API and websocket hosts, as origins', () => {
    expect(
      buildConnectSrc({
        VITE_SENTRY_DSN: 'https://key@o1.ingest.sentry.io/42',
        VITE_QA_API_BASE: ' https://qa.example.com/api/ ',
        VITE_QA_WS_BASE: 'wss://qa-ws.example.com:8443/ws',
      }),
    ).toEqual(['https://o1.ingest.sentry.io', 'https://qa.example.com', 'wss://qa.example.com', 'wss://qa-ws.example.com:8443']);
    // Without a websocket base the preset's socket follows its API base.
    expect(buildConnectSrc({ VITE_QA_API_BASE: 'http://127.0.0.1:9000' })).toEqual(['http://127.0.0.1:9000', 'ws://127.0.0.1:9000']);
    expect(buildConnectSrc({ VITE_SENTRY_DSN: '', VITE_QA_API_BASE: '  ' })).toEqual([]);
    expect(buildConnectSrc({})).toEqual([]);
  });

  it('fail the build, naming the variable, when a value is no address', () => {
    expect(() => buildConnectSrc({ VITE_SENTRY_DSN: 'not a dsn' })).toThrow(/VITE_SENTRY_DSN/);
    expect(() => buildConnectSrc({ VITE_QA_WS_BASE: 'https://qa.example.com' })).toThrow(/VITE_QA_WS_BASE/);
    expect(() => buildConnectSrc({ VITE_QA_API_BASE: "https://a.example;script-src 'unsafe-inline'" })).toThrow(/VITE_QA_API_BASE/);
  });

  it('are emitted by the plugin as connect-src.json, from the variables Vite resolved for the build', () => {
    const plugin = connectSrcPlugin();
    expect(plugin.apply).toBe('build');
    const config = { env: { VITE_SENTRY_DSN: 'http://key@127.0.0.1:9999/1', MODE: 'production' } } as unknown as ResolvedConfig;
    (plugin.configResolved as (config: ResolvedConfig) => void)(config);
    const emitted: { fileName?: string; source?: unknown }[] = [];
    (plugin.generateBundle as (this: unknown) => void).call({ emitFile: (file: { fileName?: string; source?: unknown }) => emitted.push(file) });
    expect(emitted.map((f) => f.fileName)).toEqual([BUILD_CONNECT_SRC_FILE]);
    expect(JSON.parse(String(emitted[0]?.source))).toEqual({ connectSrc: ['http://127.0.0.1:9999'] });
  });
});
