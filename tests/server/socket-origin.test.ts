import path from 'node:path';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { upgradeStatus, useTestServer, useUsers } from '../support/server';

/**
 * Issue 12: a page of another site must not open a signed-in user's websocket with a token it got hold of.
 * The browser names the page's origin in the upgrade; the server refuses a foreign one with 403 unless
 * ALLOWED_ORIGINS lists it. The app's own origin always works, also behind `npm run dev`'s Vite proxy.
 */

const PARTNER = 'https://partner.example.org';
const s = useTestServer({ allowedOrigins: [PARTNER] });
const [user] = useUsers(s, 'Origin');

const socketUrl = (base: string) =>
  `${base.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(user.token)}&last_message_id=0&protocol=7&deviceType=webclient`;

describe('websocket origins', () => {
  it('refuses a page of another site with a valid token (403)', async () => {
    expect(await upgradeStatus(socketUrl(s.url), { Origin: 'https://evil.example' })).toBe(403);
    // Same host name, another port: another origin.
    const { hostname } = new URL(s.url);
    expect(await upgradeStatus(socketUrl(s.url), { Origin: `http://${hostname}:1` })).toBe(403);
    // A sandboxed frame or a file sends "null".
    expect(await upgradeStatus(socketUrl(s.url), { Origin: 'null' })).toBe(403);
    expect(await upgradeStatus(socketUrl(s.url), { Origin: 'chrome-extension://abcdef' })).toBe(403);
  });

  it('opens for the app’s own origin, whatever name the server is reached by', async () => {
    expect(await upgradeStatus(socketUrl(s.url), { Origin: s.url })).toBe(101);
    // Behind a TLS proxy: the page is https on the default port, the Host the name alone.
    expect(await upgradeStatus(socketUrl(s.url), { Origin: 'https://chat.example.org', Host: 'chat.example.org' })).toBe(101);
    expect(await upgradeStatus(socketUrl(s.url), { Origin: 'https://chat.example.org', Host: 'chat.example.org:443' })).toBe(101);
    expect(await upgradeStatus(socketUrl(s.url), { Origin: 'https://chat.example.org', Host: 'chat.example.org:8443' })).toBe(403);
  });

  it('opens for an origin ALLOWED_ORIGINS lists, and for a client that is no browser (no Origin)', async () => {
    expect(await upgradeStatus(socketUrl(s.url), { Origin: PARTNER })).toBe(101);
    expect(await upgradeStatus(socketUrl(s.url))).toBe(101);
    expect(configFromEnv({ ALLOWED_ORIGINS: 'https://a.example, https://b.example:8443/app' }).allowedOrigins).toEqual([
      'https://a.example',
      'https://b.example:8443',
    ]);
  });
});

describe('behind npm run dev', () => {
  let vite: ViteDevServer | null = null;
  let viteUrl = '';
  beforeAll(async () => {
    // vite.config.ts proxies /ws to API_TARGET, as scripts/dev.ts sets it.
    process.env.API_TARGET = s.url;
    vite = await createViteServer({
      configFile: path.resolve(import.meta.dirname, '../../vite.config.ts'),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0, hmr: false },
    });
    await vite.listen();
    const address = vite.httpServer?.address();
    viteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(async () => {
    await vite?.close();
    delete process.env.API_TARGET;
  });

  it('the page’s socket through Vite’s proxy opens; another site’s is still refused', async () => {
    expect(await upgradeStatus(socketUrl(viteUrl), { Origin: viteUrl })).toBe(101);
    expect(await upgradeStatus(socketUrl(viteUrl), { Origin: 'https://evil.example' })).toBe(403);
  });
});
