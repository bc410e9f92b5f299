import { describe, expect, it, vi } from 'vitest';
import { activate, holdEarlyErrors, type Reporter, reportError, type ReportingSession, reportingEnabled, reportSession } from '../../../src/reporting/reporter';

const ON = { dsn: 'http://key@127.0.0.1:9/1', dev: false, environment: 'production' };

describe('error reporting before and after the SDK is loaded', () => {
  it('is on only with a DSN, and never in a development build', () => {
    expect(reportingEnabled(ON)).toBe(true);
    expect(reportingEnabled({ ...ON, dsn: undefined })).toBe(false);
    expect(reportingEnabled({ ...ON, dev: true })).toBe(false);
  });

  it('holds what happens before the SDK is up, then hands it over with the session known so far', () => {
    const target = new EventTarget() as EventTarget & Pick<typeof globalThis, 'addEventListener' | 'removeEventListener'>;
    const stop = holdEarlyErrors(target, ON);
    // A development build's errors are never even held.
    reportError(new Error('not held'), { ...ON, dev: true });
    reportError(new Error('early'), ON);
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('uncaught') }));
    reportSession({ userId: 7, countryCode: '46' });
    const captured: unknown[] = [];
    const sessions: ReportingSession[] = [];
    const reporter: Reporter = { capture: (e) => captured.push(e), setSession: (s) => sessions.push(s) };
    activate(reporter);
    stop();
    expect(captured.map((e) => (e as Error).message)).toEqual(['early', 'uncaught']);
    expect(sessions).toEqual([{ userId: 7, countryCode: '46' }]);
    reportError(new Error('later'), ON);
    reportSession(null);
    expect(captured.map((e) => (e as Error).message)).toEqual(['early', 'uncaught', 'later']);
    expect(sessions).toEqual([{ userId: 7, countryCode: '46' }, null]);
  });

  it('sends a render error with its React component stack, held until the SDK is up like any other', async () => {
    // A fresh module: nothing active yet.
    vi.resetModules();
    const fresh = await import('../../../src/reporting/reporter');
    const stack = '\n    at Crash (http://localhost/assets/debug.js:1:2)\n    at ErrorBoundary (http://localhost/assets/index.js:3:4)';
    fresh.reportRenderError(new Error('before'), stack, ON);
    fresh.reportRenderError(new Error('no stack'), null, ON);
    fresh.reportRenderError(new Error('not reported'), stack, { ...ON, dsn: undefined });
    const captured: [string, string | undefined][] = [];
    fresh.activate({ capture: (e, componentStack) => captured.push([(e as Error).message, componentStack]), setSession: () => {} });
    fresh.reportRenderError(new Error('after'), stack, ON);
    fresh.reportError(new Error('plain'), ON);
    expect(captured).toEqual([
      ['before', stack],
      ['no stack', undefined],
      ['after', stack],
      ['plain', undefined],
    ]);
  });
});
