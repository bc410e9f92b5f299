import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../support/rawGet';
import { useTestServer } from '../support/server';

/**
 * Monitoring tools check pages with HEAD (docs/server.md, "Conventions"): every page the server answers GET
 * with — the client's routes (index.html), its files, the probes — answers HEAD the same, without a body.
 */

const clientDir = mkdtempSync(path.join(tmpdir(), 'messenger-head-client-'));
const BUILD: Record<string, string> = {
  'index.html': '<!doctype html><html lang="en"><head><script type="module" src="/assets/app-abc.js"></script></head><body></body></html>',
  'assets/app-abc.js': 'export const app = 1;\n',
};
for (const [file, content] of Object.entries(BUILD)) {
  mkdirSync(path.dirname(path.join(clientDir, file)), { recursive: true });
  writeFileSync(path.join(clientDir, file), content);
}
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

const s = useTestServer({ clientDir });

/** One request as it travels (no Accept-Encoding: the plain file), body and all. */
const send = (method: 'GET' | 'HEAD', route: string) => rawRequest(s.url, route, method);

describe('HEAD', () => {
  it.each(['/', '/login', '/inbox', '/chat/12', '/settings/language?x=1', '/assets/app-abc.js', '/healthz', '/readyz'])(
    'answers %s like GET, without a body',
    async (route) => {
      const get = await send('GET', route);
      const head = await send('HEAD', route);
      expect(get.status).toBe(200);
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe(get.headers['content-type']);
      expect(head.headers['content-security-policy']).toBe(get.headers['content-security-policy']);
      if (get.headers['content-length'] !== undefined) expect(head.headers['content-length']).toBe(get.headers['content-length']);
      expect(head.body.length).toBe(0);
    },
  );

  it('sends the page of a client route as HTML', async () => {
    const head = await send('HEAD', '/chat/12');
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(BUILD['index.html'] as string));
  });

  it('answers an API path with the status GET gets, never the page', async () => {
    for (const route of ['/v2/nothing-here', '/v1/countries']) {
      const get = await send('GET', route);
      const head = await send('HEAD', route);
      expect(head.status, route).toBe(get.status);
      expect(head.headers['content-type'], route).toMatch(/^application\/json/);
    }
  });
});
