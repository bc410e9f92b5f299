import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir, precompressible } from '../../scripts/precompress';
import { COMPRESS_THRESHOLD_BYTES } from '../../server/http/compression';
import { sql } from '../../server/db/store';
import { conversation, sent } from './messages-support';
import { decodedBody, type RawAnswer, rawGet } from '../support/rawGet';
import { upgradeStatus, useTestServer, useUsers } from '../support/server';

/**
 * Issue 20, "what the budget counts is what travels": every text file of a build comes compressed when the
 * request accepts it (its `.br` or `.gz` copy, made by the build's own scripts/precompress.ts; brotli first),
 * with `Vary: Accept-Encoding`, and decodes to the file's bytes; plain when not asked. API answers above the
 * threshold travel compressed too; uploaded files and the websocket never. Plain HTTP on loopback, reading
 * the bytes as they travel (fetch would decode them). The real build's copies: tests/e2e/precompressed-build.test.ts.
 */

/** A small build as Vite lays one out, with text that compresses well enough to show it. */
const clientDir = mkdtempSync(path.join(tmpdir(), 'messenger-compression-client-'));
const code = (name: string) =>
  Array.from({ length: 120 }, (_, i) => `export function ${name}${i}(value) { return value * ${i} + ${name.length}; }`).join('\n');
const BUILD: Record<string, string | Buffer> = {
  'index.html':
    '<!doctype html><html lang="en"><head><meta charset="UTF-8"><link rel="manifest" href="/manifest.webmanifest">' +
    '<link rel="stylesheet" href="/assets/index-abc.css"><script type="module" src="/assets/index-abc.js"></script></head>' +
    '<body><div id="root"></div></body></html>',
  'assets/index-abc.js': code('entry'),
  'assets/chat-def.js': code('chat'),
  'assets/index-abc.css': Array.from({ length: 80 }, (_, i) => `.row-${i} { padding: ${i}px; color: #0b6e4f; }`).join('\n'),
  'assets/tiny-ghi.js': 'export const a = 1;\n',
  'manifest.webmanifest': JSON.stringify({ name: 'Messenger', short_name: 'Messenger', start_url: '/inbox', display: 'standalone' }),
  'sw.js': `self.addEventListener('install', () => self.skipWaiting());\n${code('sw')}`,
  'icons/mark.svg': `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${'<rect width="1" height="1"/>'.repeat(50)}</svg>`,
  'connect-src.json': JSON.stringify({ connectSrc: [] }),
  'icons/icon-192.png': Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
};
for (const [file, content] of Object.entries(BUILD)) {
  mkdirSync(path.dirname(path.join(clientDir, file)), { recursive: true });
  writeFileSync(path.join(clientDir, file), content);
}
/** The build's text files, compressed as the build compresses them. */
let textFiles: string[] = [];
beforeAll(async () => {
  textFiles = await precompressDir(clientDir);
  // Written after the build compressed it (an older build, a file dropped in by hand): compressed on the fly.
  writeFileSync(path.join(clientDir, 'assets/late-jkl.js'), code('late'));
});
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const s = useTestServer({ clientDir });
const [anna, bo] = useUsers(s, 'Anna', 'Bo');

const get = (route: string, headers: Record<string, string> = {}) => rawGet(s.url, route, headers);

const varies = (answer: RawAnswer) => /(^|,)\s*accept-encoding\s*(,|$)/i.test(String(answer.headers.vary ?? ''));

/** Each way of asking, and the encoding that must come back. */
const ASKED = [
  { accept: 'br', encoding: 'br' },
  { accept: 'gzip', encoding: 'gzip' },
  // What Chromium sends: brotli wins.
  { accept: 'gzip, deflate, br, zstd', encoding: 'br' },
  { accept: 'br;q=0.5, gzip', encoding: 'gzip' },
  // Not asked, or asked only for what the server does not make: plain.
  { accept: undefined, encoding: undefined },
  { accept: 'identity', encoding: undefined },
  { accept: 'deflate', encoding: undefined },
] as const;

describe('the client’s files', () => {
  it('compresses every text file of the build: js, css, html, manifest, svg, json', () => {
    expect([...textFiles].sort()).toEqual(
      [
        'assets/chat-def.js',
        'assets/index-abc.css',
        'assets/index-abc.js',
        'assets/tiny-ghi.js',
        'connect-src.json',
        'icons/mark.svg',
        'index.html',
        'manifest.webmanifest',
        'sw.js',
      ].sort(),
    );
    // Pictures are compressed already; the copies themselves are not compressed again.
    expect(existsSync(path.join(clientDir, 'icons/icon-192.png.br'))).toBe(false);
    expect(precompressible(clientDir).filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
  });

  it('sends each one compressed as asked, with Vary, decoding to the file’s bytes, and plain when not asked', async () => {
    for (const file of textFiles) {
      const bytes = readFileSync(path.join(clientDir, file));
      const plain = await get(`/${file}`);
      for (const { accept, encoding } of ASKED) {
        const answer = await get(`/${file}`, accept === undefined ? {} : { 'Accept-Encoding': accept });
        const what = `${file} with Accept-Encoding: ${accept ?? '(none)'}`;
        expect(answer.status, what).toBe(200);
        expect(answer.headers['content-encoding'], what).toBe(encoding);
        expect(varies(answer), `${what}: Vary ${answer.headers.vary}`).toBe(true);
        expect(answer.headers['content-type'], what).toBe(plain.headers['content-type']);
        expect(decodedBody(answer).equals(bytes), what).toBe(true);
        if (encoding !== undefined) {
          // The build's copy itself, not one made on the fly.
          const copy = readFileSync(path.join(clientDir, `${file}.${encoding === 'br' ? 'br' : 'gz'}`));
          expect(answer.body.equals(copy), what).toBe(true);
          expect(Number(answer.headers['content-length']), what).toBe(copy.length);
        }
      }
    }
  });

  it('sends the page of a client route (/inbox, /) compressed too, with the security headers', async () => {
    const page = readFileSync(path.join(clientDir, 'index.html'));
    for (const route of ['/', '/inbox', '/inbox/12', '/settings']) {
      for (const { accept, encoding } of ASKED) {
        const answer = await get(route, accept === undefined ? {} : { 'Accept-Encoding': accept });
        const what = `${route} with Accept-Encoding: ${accept ?? '(none)'}`;
        expect(answer.status, what).toBe(200);
        expect(answer.headers['content-type'], what).toBe('text/html; charset=utf-8');
        expect(answer.headers['content-encoding'], what).toBe(encoding);
        expect(varies(answer), what).toBe(true);
        expect(answer.headers['content-security-policy'], what).toContain("script-src 'self'");
        expect(decodedBody(answer).equals(page), what).toBe(true);
      }
    }
  });

  it('keeps the service worker’s Cache-Control: no-cache when it is sent compressed', async () => {
    for (const accept of ['br', 'gzip', undefined]) {
      const answer = await get('/sw.js', accept === undefined ? {} : { 'Accept-Encoding': accept });
      expect(answer.headers['cache-control'], accept).toBe('no-cache');
      expect(answer.headers['content-encoding'], accept).toBe(accept);
    }
  });

  it('answers a revalidation of a compressed file with 304 and Vary', async () => {
    const first = await get('/assets/index-abc.js', { 'Accept-Encoding': 'br' });
    const again = await get('/assets/index-abc.js', { 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(varies(again)).toBe(true);
  });

  it('never serves the compressed copies under their own names, nor compresses a picture', async () => {
    const copy = await get('/assets/index-abc.js.br', { 'Accept-Encoding': 'br' });
    // An unknown path: the app's page, as for any client route.
    expect(copy.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(decodedBody(copy).equals(readFileSync(path.join(clientDir, 'index.html')))).toBe(true);
    const png = await get('/icons/icon-192.png', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.equals(BUILD['icons/icon-192.png'] as Buffer)).toBe(true);
  });

  it('compresses on the fly a text file the build left without copies', async () => {
    const bytes = readFileSync(path.join(clientDir, 'assets/late-jkl.js'));
    for (const { accept, encoding } of ASKED) {
      const answer = await get('/assets/late-jkl.js', accept === undefined ? {} : { 'Accept-Encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBe(encoding);
      expect(decodedBody(answer).equals(bytes), accept).toBe(true);
    }
  });
});

describe('the API’s answers', () => {
  const headers = () => ({ 'Auth-Token': anna.token, 'Client-Version': '1', 'x-features': '15' });
  let chat = 0;
  beforeAll(async () => {
    chat = await conversation(s, { members: [anna.id, bo.id] });
    for (let i = 1; i <= 20; i++) await sent(s, i % 2 ? anna : bo, chat, `Message ${i}: a text long enough to count.`);
  });

  it('come compressed above the threshold as asked, with Vary, and plain when not asked', async () => {
    const route = `/v2/conversations/${chat}/messages`;
    const plain = await get(route, headers());
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(4 * COMPRESS_THRESHOLD_BYTES);
    const page = JSON.parse(plain.body.toString('utf8')) as unknown;
    for (const { accept, encoding } of ASKED) {
      const answer = await get(route, accept === undefined ? headers() : { ...headers(), 'Accept-Encoding': accept });
      const what = `Accept-Encoding: ${accept ?? '(none)'}`;
      expect(answer.status, what).toBe(200);
      expect(answer.headers['content-type'], what).toBe('application/json; charset=utf-8');
      expect(answer.headers['content-encoding'], what).toBe(encoding);
      if (encoding !== undefined) {
        expect(varies(answer), what).toBe(true);
        expect(answer.body.length, what).toBeLessThan(plain.body.length / 2);
      }
      expect(JSON.parse(decodedBody(answer).toString('utf8')), what).toEqual(page);
    }
  });

  it('go plain below the threshold', async () => {
    const answer = await get('/v1/me', { ...headers(), 'Accept-Encoding': 'br, gzip' });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  it('never compress an uploaded file, even of a type that would compress', async () => {
    // Uploads are sniffed to pictures and videos; a row of a compressible type (an SVG) is written here.
    const name = `${'ab'.repeat(16)}.svg`;
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(200)}</svg>`);
    writeFileSync(path.join(s.dataDir, 'files', name), svg);
    await s.server.ctx.db.run(
      sql`INSERT INTO files (name, owner_id, purpose, mime, kind, size, original_name, created_at)
          VALUES (${name}, ${anna.id}, 'attachment', 'image/svg+xml', 'image', ${svg.length}, 'mark.svg', ${s.server.ctx.clock.now()})`,
    );
    const answer = await get(`/files/${name}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('image/svg+xml');
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(Number(answer.headers['content-length'])).toBe(svg.length);
    expect(answer.body.equals(svg)).toBe(true);
  });

  it('leave the websocket upgrade alone', async () => {
    const ws = `${s.url.replace(/^http/, 'ws')}/ws?token=${anna.token}&last_message_id=0&protocol=7&deviceType=webclient`;
    expect(await upgradeStatus(ws, { 'Accept-Encoding': 'gzip, deflate, br' })).toBe(101);
  });
});
