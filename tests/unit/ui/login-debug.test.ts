import { describe, expect, it } from 'vitest';
import { debugAccess, envEntries, openEnvironment } from '../../../src/ui/debug/buildEnv';
import { checkCustomHosts } from '../../../src/ui/debug/environments';

/** The debug screen's build rules (spec §2, design.md §4); it lives beside the login as the other pre-login screen. */
describe('debug access', () => {
  it('is open in develop and QA builds, whatever the password', () => {
    expect(debugAccess({ DEV: true })).toEqual({ kind: 'open' });
    expect(debugAccess({ DEV: false, VITE_APP_ENV: 'develop', VITE_DEBUG_PASSWORD: 'x' })).toEqual({ kind: 'open' });
    expect(debugAccess({ DEV: false, VITE_APP_ENV: 'QA' })).toEqual({ kind: 'open' });
  });

  it('needs the password elsewhere, and is closed without one', () => {
    expect(debugAccess({ DEV: false, VITE_DEBUG_PASSWORD: 'secret' })).toEqual({ kind: 'password', password: 'secret' });
    expect(debugAccess({ DEV: false, VITE_APP_ENV: 'production', VITE_DEBUG_PASSWORD: 'secret' })).toEqual({
      kind: 'password',
      password: 'secret',
    });
    expect(debugAccess({ DEV: false })).toEqual({ kind: 'closed' });
    expect(debugAccess({ DEV: false, VITE_DEBUG_PASSWORD: '' })).toEqual({ kind: 'closed' });
  });

  it('lists the build variables sorted, never showing the password', () => {
    expect(envEntries({ MODE: 'production', VITE_DEBUG_PASSWORD: 'secret', DEV: false }, '(hidden)')).toEqual([
      ['DEV', 'false'],
      ['MODE', 'production'],
      ['VITE_DEBUG_PASSWORD', '(hidden)'],
    ]);
  });
});

describe('custom hosts', () => {
  it('take an http(s) API base and an optional ws(s) socket base, without a trailing slash', () => {
    expect(checkCustomHosts(' https://api.example.org/ ', '')).toEqual({
      ok: true,
      hosts: { apiBase: 'https://api.example.org', wsBase: null },
    });
    expect(checkCustomHosts('http://127.0.0.1:8080/base', 'wss://ws.example.org')).toEqual({
      ok: true,
      hosts: { apiBase: 'http://127.0.0.1:8080/base', wsBase: 'wss://ws.example.org' },
    });
  });

  it('refuse what is not such an address', () => {
    for (const api of ['', 'api.example.org', 'ftp://example.org', 'javascript:alert(1)', 'https://u:p@example.org']) {
      expect(checkCustomHosts(api, '')).toEqual({ ok: false, field: 'apiBase', error: 'invalidApiBase' });
    }
    expect(checkCustomHosts('https://example.org', 'https://example.org')).toEqual({
      ok: false,
      field: 'wsBase',
      error: 'invalidWsBase',
    });
  });
});

describe('the environment the account page shows (spec §2)', () => {
  it('is named only in development, develop and QA builds', () => {
    expect(openEnvironment({ DEV: true })).toBe('development');
    expect(openEnvironment({ DEV: false, VITE_APP_ENV: ' QA ' })).toBe('qa');
    expect(openEnvironment({ DEV: false, VITE_APP_ENV: 'develop' })).toBe('develop');
    expect(openEnvironment({ DEV: false, VITE_APP_ENV: 'production' })).toBeNull();
    expect(openEnvironment({ DEV: false })).toBeNull();
  });
});
