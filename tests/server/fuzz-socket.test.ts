import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { insertConversation } from '../support/fixtures';
import { call, TestSocket, upgradeStatus, useTestServer, useUsers } from '../support/server';
import { encode, FUZZ_RUNS, FUZZ_SEED } from './fuzz-support';

/**
 * Issue 12: hostile websocket traffic (binary frames, huge frames, text that is not JSON or not UTF-8,
 * unknown actions, fields of the wrong type, deep nesting) and hostile connection URLs. The server may
 * close the offending socket; it must not crash, must answer HTTP, and must keep delivering to others.
 */

const s = useTestServer();
const [attacker, observer, friend] = useUsers(s, 'Attacker', 'Observer', 'Friend');
let group = 0;
let watcher: TestSocket;

beforeAll(async () => {
  const members = [attacker.id, observer.id, friend.id];
  group = (await insertConversation(s.server.ctx.db, { members, isGroup: true, name: 'Socket fuzz' })).id;
  watcher = new TestSocket(s.url, observer.token);
  await watcher.loaded();
});
afterAll(() => watcher?.close());

/** One frame as the `ws` client sends it: text, binary, or text whose bytes are not UTF-8. */
type Frame = { text: string } | { binary: Uint8Array } | { badUtf8: Uint8Array };

const jsonData = fc.jsonValue({ maxDepth: 3 });
const action = fc.oneof(
  fc.constantFrom('pong', 'ping', 'socket_loaded', 'conversation_message', 'subscribe', '__proto__', 'constructor', ''),
  fc.string({ unit: 'binary', maxLength: 20 }),
  jsonData,
);
const frame: fc.Arbitrary<Frame> = fc.oneof(
  {
    arbitrary: fc
      .record({ action, data: jsonData, id: jsonData }, { requiredKeys: [] })
      .map((f) => ({ text: JSON.stringify(f) })),
    weight: 4,
  },
  { arbitrary: jsonData.map((v) => ({ text: JSON.stringify(v) })), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }).map((text) => ({ text })), weight: 2 },
  { arbitrary: fc.uint8Array({ maxLength: 300 }).map((binary) => ({ binary })), weight: 2 },
  {
    arbitrary: fc.constantFrom<Frame>(
      { text: 'x'.repeat(70_000) },
      { binary: new Uint8Array(70_000) },
      { text: '['.repeat(50_000) },
      { text: `${'['.repeat(5_000)}${']'.repeat(5_000)}` },
      { text: `{"action":"pong","data":${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}}` },
      { text: '{"action":"pong","__proto__":{"polluted":true}}' },
      { badUtf8: Uint8Array.from([0x7b, 0xff, 0xfe, 0x7d]) },
    ),
    weight: 1,
  },
);

function sendFrame(ws: WebSocket, f: Frame): void {
  if ('text' in f) ws.send(f.text);
  else if ('binary' in f) ws.send(f.binary, { binary: true });
  else ws.send(Buffer.from(f.badUtf8), { binary: false });
}

/** The status the upgrade is answered with: 101 when the socket opens. */
const upgrade = (query: string) => upgradeStatus(`${s.url.replace(/^http/, 'ws')}/ws?${query}`);

describe('fuzzing the websocket', () => {
  it('survives hostile frames, closing at most the socket that sent them', async () => {
    let socket = new TestSocket(s.url, attacker.token);
    await socket.loaded();
    let closedByServer = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 6 }), async (frames) => {
        if (socket.ws.readyState !== WebSocket.OPEN) {
          closedByServer += 1;
          socket = new TestSocket(s.url, attacker.token);
          await socket.loaded();
        }
        for (const f of frames) if (socket.ws.readyState === WebSocket.OPEN) sendFrame(socket.ws, f);
        // The server runs in this process: a throw of its own would fail the run as an unhandled error.
        expect((await call(s.url, 'GET', '/v1/countries')).status).toBe(200);
        expect(watcher.ws.readyState).toBe(WebSocket.OPEN);
      }),
      { numRuns: FUZZ_RUNS * 5, seed: FUZZ_SEED },
    );
    socket.close();
    // Others are still served live: a message sent now reaches the observer's socket.
    const sent = await call<{ message: { id: number } }>(s.url, 'POST', `/v2/conversations/${group}/messages`, {
      token: friend.token,
      json: { client_id: 1, message: 'still here' },
    });
    const id = sent.data.message.id;
    await watcher.next((f) => f.action === 'conversation_message' && f.data.message.id === id);
    // Sanity: some frames were bad enough for the server to close the socket (huge, not UTF-8).
    expect(closedByServer + (socket.ws.readyState === WebSocket.OPEN ? 0 : 1)).toBeGreaterThan(0);
  }, 30_000 + FUZZ_RUNS * 2_000);

  it('answers hostile connection URLs with a refusal or a socket, never a 5xx', async () => {
    const value = fc.oneof(
      fc.constantFrom('Infinity', '1e999', '-1', '0', '7', '9007199254740993', '', '%', 'NaN', attacker.token),
      fc.string({ unit: 'binary', maxLength: 40 }),
    );
    const key = fc.constantFrom('token', 'last_message_id', 'protocol', 'epoch', 'deviceType', '__proto__');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(key, value), { maxLength: 5 }), async (pairs) => {
        const status = await upgrade(pairs.map(([k, v]) => `${k}=${encode(v)}`).join('&'));
        expect([101, 400, 401, 403]).toContain(status);
        expect((await call(s.url, 'GET', '/v1/countries')).status).toBe(200);
      }),
      { numRuns: FUZZ_RUNS * 5, seed: FUZZ_SEED },
    );
    expect(watcher.ws.readyState).toBe(WebSocket.OPEN);
  }, 30_000 + FUZZ_RUNS * 2_000);
});
