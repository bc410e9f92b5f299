import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PRECOMPRESSED, precompressible } from '../../scripts/precompress';
import { decodedBody, rawGet } from '../support/rawGet';
import { useTestServer } from '../support/server';
import { CLIENT_DIR, useChromium } from '../support/tabs';

/**
 * Issue 20 on the real build (the one every e2e test serves, made by `vite build` with vite.config.ts): every
 * text file it has — scripts, styles, the page, the web manifest, the service worker and its Workbox runtime —
 * carries a brotli and a gzip copy of the same bytes, and the reference server sends them as asked; Chromium
 * gets brotli. tests/server/compression.test.ts holds the server's rules in detail, on a small build.
 */

const server = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();

/** Every file of the build a visitor may load: not Vite's manifest (`.vite/`, never served) nor the copies. */
const served = readdirSync(CLIENT_DIR, { recursive: true, encoding: 'utf8' })
  .map((file) => file.split(path.sep).join('/'))
  .filter((file) => !file.startsWith('.vite/') && !/\.(br|gz)$/.test(file) && statSync(path.join(CLIENT_DIR, file)).isFile());

const get = (route: string, accept?: string) => rawGet(server.url, route, accept === undefined ? {} : { 'Accept-Encoding': accept });

describe('the precompressed build', () => {
  it('has a .br and a .gz copy of every text file, decoding to its bytes', () => {
    const text = precompressible(CLIENT_DIR);
    // Every script and style, the page, the manifest, the service worker and its runtime are among them.
    for (const file of ['index.html', 'manifest.webmanifest', 'sw.js']) expect(text).toContain(file);
    const scripts = served.filter((file) => /\.(js|css)$/.test(file));
    expect(scripts.length).toBeGreaterThan(10);
    expect(scripts.some((file) => /^workbox-[\w-]+\.js$/.test(file))).toBe(true);
    for (const file of served) expect(text.includes(file), file).toBe(PRECOMPRESSED.test(file));
    for (const file of text) {
      const bytes = readFileSync(path.join(CLIENT_DIR, file));
      expect(brotliDecompressSync(readFileSync(path.join(CLIENT_DIR, `${file}.br`))).equals(bytes), `${file}.br`).toBe(true);
      expect(gunzipSync(readFileSync(path.join(CLIENT_DIR, `${file}.gz`))).equals(bytes), `${file}.gz`).toBe(true);
    }
  });

  it('is served compressed as asked, with Vary, and plain when not asked', async () => {
    for (const file of precompressible(CLIENT_DIR)) {
      const bytes = readFileSync(path.join(CLIENT_DIR, file));
      for (const [accept, encoding] of [['gzip, deflate, br, zstd', 'br'], ['gzip', 'gzip'], [undefined, undefined]] as const) {
        const answer = await get(`/${file}`, accept);
        const what = `${file}, Accept-Encoding: ${accept ?? '(none)'}`;
        expect(answer.status, what).toBe(200);
        expect(answer.headers['content-encoding'], what).toBe(encoding);
        expect(String(answer.headers.vary), what).toMatch(/accept-encoding/i);
        expect(decodedBody(answer).equals(bytes), what).toBe(true);
      }
    }
  });

  it('reaches Chromium as brotli: the page of /login, its scripts and styles', async () => {
    const context = await chromium.context();
    const page = await context.newPage();
    const encodings = new Map<string, string | undefined>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === new URL(server.url).origin && !/^\/(v1|v2|files|ws)\//.test(url.pathname)) {
        encodings.set(url.pathname, response.headers()['content-encoding']);
      }
    });
    await page.goto(`${server.url}/login`);
    await page.locator('input[type="tel"]').waitFor({ state: 'visible', timeout: 20_000 });
    const text = [...encodings.keys()].filter((p) => p === '/login' || /\.(js|css|webmanifest)$/.test(p));
    expect(text).toContain('/login');
    expect(text.filter((p) => p.endsWith('.js')).length).toBeGreaterThan(0);
    expect(Object.fromEntries(text.map((p) => [p, encodings.get(p)]))).toEqual(Object.fromEntries(text.map((p) => [p, 'br'])));
  });
});
