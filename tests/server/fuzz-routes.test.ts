import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type BuiltServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { sql } from '../../server/db/store';
import { type RouteEntry, routeTable } from '../../server/http/routeTable';
import { snapshotter } from '../support/dbSnapshot';
import { testDatabaseUrl } from '../support/postgresSchema';
import { call } from '../support/server';
import { encode, FUZZ_RUNS, FUZZ_SEED, type FuzzBody, type FuzzRequest, fuzzArbitraries, pathParams } from './fuzz-support';
import { type FuzzWorld, seedFuzzWorld } from './fuzz-world';

/**
 * Issue 12: every route of the server's own route table (server/http/routeTable.ts, so a new route is
 * fuzzed without being listed here) gets hostile paths, queries, headers and bodies (JSON, forms,
 * multipart, wrong content types) from a member, an outsider, nobody and a forged token, each route in a
 * fresh world (fuzz-world.ts). Whatever comes: never a 5xx, nothing logged as an error, the server still
 * answers, and a refused request (4xx) leaves every table of the database as it was. FUZZ_RUNS (requests
 * per route) and FUZZ_SEED widen the search; a failure prints the seed and the smallest request that
 * shows it.
 */

/**
 * Refusals that write on purpose: a wrong PIN is counted against the number (spec §5's tries), so its
 * 400 changes these tables and no others.
 */
const REFUSALS_THAT_WRITE: Record<string, readonly string[]> = {
  'POST /v1/auth/pin/confirm': ['pins', 'pin_failures'],
};

let server: BuiltServer;
let base: string;
let dataDir: string;
/** Names of stored files, for `/files/:name`. */
const files: string[] = [];
const errorLines: string[] = [];
/** "METHOD url" of every route a fuzzed request was routed to. */
const reached = new Set<string>();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-fuzz-'));
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      // Fastify's levels: 50 error, 60 fatal. A refused request is never one; a bug is.
      for (const line of chunk.toString().split('\n')) if (/"level":(50|60)/.test(line)) errorLines.push(line);
      done();
    },
  });
  // PostgreSQL under the server-postgres project (a schema of its own), SQLite otherwise.
  const databaseUrl = await testDatabaseUrl(dataDir);
  server = await buildServer(testConfig(dataDir, databaseUrl ? { databaseUrl } : {}), {
    logStream,
    announcePin: () => undefined,
  });
  // Durability is not what is fuzzed here: without a disk sync per commit the run takes a fraction of the time.
  if (server.ctx.db.dialect === 'sqlite') await server.ctx.db.run(sql`PRAGMA synchronous = OFF`);
  server.app.addHook('onResponse', async (request) => {
    if (request.routeOptions.url !== undefined) reached.add(`${request.method} ${request.routeOptions.url}`);
  });
  base = await server.listen();
  const uploader = (await seedFuzzWorld(server.ctx, [])).member;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex');
  const upload = new FormData();
  upload.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'fuzz.png');
  const file = await call<{ file: { id: string } }>(base, 'POST', '/v2/filestorage/file', {
    token: uploader.token,
    body: upload,
  });
  files.push(file.data.file.id);
});

afterAll(async () => {
  await server?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function token(world: FuzzWorld, identity: FuzzRequest['identity']): string | undefined {
  if (identity === 'member') return world.member.token;
  if (identity === 'outsider') return world.outsider.token;
  if (identity === 'forged') return 'x'.repeat(43);
  return undefined;
}

function bodyOf(body: FuzzBody): { body?: BodyInit; contentType?: string } {
  switch (body.kind) {
    case 'none':
      return {};
    case 'json':
      return { body: body.text, contentType: body.contentType };
    case 'form':
      return { body: body.text, contentType: 'application/x-www-form-urlencoded' };
    case 'raw':
      return { body: new Uint8Array(body.bytes), ...(body.contentType ? { contentType: body.contentType } : {}) };
    case 'multipart': {
      const form = new FormData();
      for (const [name, value] of body.fields) form.append(name, value);
      const file = body.file;
      if (file) form.append(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
      return { body: form };
    }
  }
}

/** Sends one fuzzed request to a route; a broken connection rejects, and fails the property. */
async function send(world: FuzzWorld, route: RouteEntry, request: FuzzRequest): Promise<{ status: number; text: string }> {
  const url = route.url.replace(/:(\w+)/g, (_whole, name: string) => encode(request.params[name] ?? ''));
  const headers: Record<string, string> = { ...request.headers };
  const auth = token(world, request.identity);
  if (auth) headers['Auth-Token'] = auth;
  const withBody = route.method !== 'GET' && route.method !== 'HEAD';
  const { body, contentType } = withBody ? bodyOf(request.body) : {};
  if (contentType !== undefined) headers['Content-Type'] = contentType;
  const response = await fetch(`${base}${url}${request.query ? `?${request.query}` : ''}`, {
    method: route.method,
    headers,
    ...(body !== undefined ? { body } : {}),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

describe('fuzzing every route', () => {
  it('never answers 5xx, keeps serving, and a refused request changes nothing', async () => {
    const routes = routeTable(server.app);
    // Sanity: the table is the server's own, community scope and all.
    expect(routes.length).toBeGreaterThan(50);
    const posts = routes.find((r) => r.method === 'GET' && r.url === '/v1/channels/:id/posts');
    expect(Object.keys((posts?.schema.querystring as { properties?: object } | undefined)?.properties ?? {})).toEqual([
      'limit',
      'before',
      'after',
      'around',
    ]);
    const db = server.ctx.db;
    for (const [index, route] of routes.entries()) {
      const world = await seedFuzzWorld(server.ctx, files);
      const { request } = fuzzArbitraries(world.pool);
      const routeKey = `${route.method} ${route.url}`;
      const snapshot = snapshotter(db, REFUSALS_THAT_WRITE[routeKey]);
      await fc.assert(
        fc.asyncProperty(request({ params: pathParams(route.url), schema: route.schema }), async (fuzzed) => {
          const before = await snapshot();
          const answer = await send(world, route, fuzzed);
          expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
          if (answer.status >= 400) expect(await snapshot()).toEqual(before);
          expect(errorLines).toEqual([]);
        }),
        // Each route its own seed, so the routes do not all get the same requests.
        { numRuns: FUZZ_RUNS, seed: FUZZ_SEED + index },
      );
      // Still serving (a request the server could not answer would already have failed the property).
      expect((await call(base, 'GET', '/v1/countries')).status).toBe(200);
    }
    // Every route of the table got requests it answered itself (not the router's "Not found").
    const missed = routes.map((r) => `${r.method} ${r.url}`).filter((key) => !reached.has(key));
    expect(missed).toEqual([]);
    // About 60 routes, a few milliseconds a request: room for long FUZZ_RUNS on a slow machine.
  }, 30_000 + FUZZ_RUNS * 4_000);
});
