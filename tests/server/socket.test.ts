import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { EventFrame, ServerFrame } from '../../src/protocol/socket';
import { buildServer } from '../../server/app';
import { testConfig } from '../../server/config';
import { insertConversation } from '../support/fixtures';
import { call, signUp, startTestServer, type TestServer, TestSocket, type TestUser } from '../support/server';

const wsUrl = (base: string, query: string) => `${base.replace(/^http/, 'ws')}/ws?${query}`;

/** Resolves with the HTTP status an upgrade attempt was refused with, or 101 when it opened. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });
}

const send = (base: string, user: TestUser, conversationId: number, text: string, clientId: number) =>
  call<{ message: { id: number } }>(base, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token: user.token,
    json: { client_id: clientId, message: text },
  }).then((r) => r.data.message);

const messageTexts = (frames: ServerFrame[]) =>
  frames
    .filter((f): f is Extract<EventFrame, { action: 'conversation_message' }> => f.action === 'conversation_message')
    .map((f) => f.data.message.message);

describe('websocket handshake', () => {
  let s: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    s = await startTestServer();
    user = await signUp(s.url, 'Sock');
  });
  afterAll(() => s.close());

  it('refuses a missing or unknown token, a wrong path and a wrong protocol', async () => {
    expect(await upgradeStatus(wsUrl(s.url, 'last_message_id=0&protocol=7&deviceType=webclient'))).toBe(401);
    expect(await upgradeStatus(wsUrl(s.url, 'token=nope&last_message_id=0&protocol=7'))).toBe(401);
    expect(await upgradeStatus(`${s.url.replace('http', 'ws')}/socket?token=${user.token}`)).toBe(404);
    expect(await upgradeStatus(wsUrl(s.url, `token=${user.token}&last_message_id=0&protocol=6`))).toBe(400);
    expect(await upgradeStatus(wsUrl(s.url, `token=${user.token}&last_message_id=abc&protocol=7`))).toBe(400);
    expect(await upgradeStatus(wsUrl(s.url, `token=${user.token}&last_message_id=0&protocol=7&deviceType=webclient`))).toBe(101);
  });

  it('starts with a ping carrying the interval, then socket_loaded', async () => {
    const sock = new TestSocket(s.url, user.token);
    const loaded = await sock.loaded();
    expect(sock.frames[0]).toEqual({ action: 'ping', interval: 10 });
    expect(loaded).toEqual({
      action: 'socket_loaded',
      data: { need_sync: false, last_message_id: 0, epoch: expect.stringMatching(/^[0-9a-f]{16}$/) },
    });
    sock.close();
  });
});

describe('ping and pong', () => {
  let s: TestServer;
  let user: TestUser;
  beforeAll(async () => {
    s = await startTestServer({ pingIntervalMs: 150 });
    user = await signUp(s.url, 'Pinger');
  });
  afterAll(() => s.close());

  it('keeps a client that answers pongs beyond interval + 3 s', async () => {
    const sock = new TestSocket(s.url, user.token);
    await sock.loaded();
    await new Promise((r) => setTimeout(r, 3600));
    expect(sock.ws.readyState).toBe(WebSocket.OPEN);
    expect(sock.frames.filter((f) => f.action === 'ping').length).toBeGreaterThan(10);
    sock.close();
  });

  it('drops a client that sends no pong within interval + 3 s', async () => {
    const sock = new TestSocket(s.url, user.token, 0, { answerPings: false });
    await sock.loaded();
    const started = Date.now();
    await sock.closed;
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(3000);
    expect(elapsed).toBeLessThan(6000);
    await expect.poll(() => s.server.hub.connectionCount(user.id)).toBe(0);
  });
});

describe('replay after a reconnect', () => {
  let s: TestServer;
  let anna: TestUser;
  let erik: TestUser;
  let chat: number;
  beforeAll(async () => {
    s = await startTestServer({ eventRetention: 5 });
    anna = await signUp(s.url, 'Anna');
    erik = await signUp(s.url, 'Erik');
    chat = (await insertConversation(s.server.ctx.db, { members: [anna.id, erik.id] })).id;
  });
  afterAll(() => s.close());

  it('sends what was missed, in order, once, and then live events', async () => {
    const first = new TestSocket(s.url, erik.token);
    await first.loaded();
    await send(s.url, anna, chat, 'one', 1);
    const seen = (await first.next((f) => f.action === 'conversation_message')) as EventFrame;
    const lastId = seen.id as number;
    first.close();
    await first.closed;

    await send(s.url, anna, chat, 'two', 2);
    await send(s.url, anna, chat, 'three', 3);

    const again = new TestSocket(s.url, erik.token, lastId);
    const loaded = await again.loaded();
    expect(loaded).toMatchObject({ data: { need_sync: false } });
    expect(messageTexts(again.frames)).toEqual(['two', 'three']);
    const ids = again.frames.flatMap((f) => ('id' in f && typeof f.id === 'number' ? [f.id] : []));
    expect(ids).toEqual([lastId + 1, lastId + 2]);

    await send(s.url, anna, chat, 'four', 4);
    await again.next((f) => f.action === 'conversation_message' && f.data.message.message === 'four');
    expect(messageTexts(again.frames)).toEqual(['two', 'three', 'four']);
    again.close();
  });

  it('answers need_sync when the last id is older than what the server keeps', async () => {
    for (let i = 0; i < 8; i++) await send(s.url, anna, chat, `bulk ${i}`, 100 + i);
    const sock = new TestSocket(s.url, erik.token, 1);
    expect(await sock.loaded()).toMatchObject({ data: { need_sync: true } });
    expect(messageTexts(sock.frames)).toEqual([]);
    sock.close();
  });

  it('answers need_sync when the last id is from another database', async () => {
    const sock = new TestSocket(s.url, erik.token, 999_999);
    expect(await sock.loaded()).toMatchObject({ data: { need_sync: true } });
    sock.close();
  });

  it('answers need_sync for a lower id from another database, told apart by the epoch', async () => {
    const probe = new TestSocket(s.url, erik.token);
    const { data } = (await probe.loaded()) as Extract<ServerFrame, { action: 'socket_loaded' }>;
    probe.close();
    const same = new TestSocket(s.url, erik.token, data.last_message_id - 1, {}, data.epoch);
    expect(await same.loaded()).toMatchObject({ data: { need_sync: false } });
    expect(messageTexts(same.frames).length).toBe(1);
    same.close();
    const other = new TestSocket(s.url, erik.token, data.last_message_id - 1, {}, '0123456789abcdef');
    expect(await other.loaded()).toMatchObject({ data: { need_sync: true } });
    expect(messageTexts(other.frames)).toEqual([]);
    other.close();
  });

  it('replays from the first event to a client told position 0 of this database (a first connection’s gap)', async () => {
    const newcomer = await signUp(s.url, 'Nina');
    const probe = new TestSocket(s.url, newcomer.token);
    const { data } = (await probe.loaded()) as Extract<ServerFrame, { action: 'socket_loaded' }>;
    probe.close();
    expect(data.last_message_id).toBe(0);
    const dm = (await insertConversation(s.server.ctx.db, { members: [anna.id, newcomer.id] })).id;
    await send(s.url, anna, dm, 'while the first socket was down', 900);

    // Without the epoch, 0 is a fresh client: nothing to replay (it fetches the lists).
    const fresh = new TestSocket(s.url, newcomer.token, 0);
    expect(await fresh.loaded()).toMatchObject({ data: { need_sync: false, last_message_id: 1 } });
    expect(messageTexts(fresh.frames)).toEqual([]);
    fresh.close();
    // With this database's epoch, 0 is a position: everything after it comes.
    const known = new TestSocket(s.url, newcomer.token, 0, {}, data.epoch);
    expect(await known.loaded()).toMatchObject({ data: { need_sync: false, last_message_id: 1 } });
    expect(messageTexts(known.frames)).toEqual(['while the first socket was down']);
    known.close();
  });

  it('delivers to every open connection of a user', async () => {
    const a = new TestSocket(s.url, erik.token);
    const b = new TestSocket(s.url, erik.token);
    await Promise.all([a.loaded(), b.loaded()]);
    await send(s.url, anna, chat, 'to both', 500);
    await a.next((f) => f.action === 'conversation_message' && f.data.message.message === 'to both');
    await b.next((f) => f.action === 'conversation_message' && f.data.message.message === 'to both');
    a.close();
    b.close();
  });
});

describe('presence', () => {
  it('tells chat partners when a user comes online and goes offline', async () => {
    const s = await startTestServer();
    try {
      const anna = await signUp(s.url, 'Anna');
      const erik = await signUp(s.url, 'Erik');
      const outsider = await signUp(s.url, 'Olle');
      await insertConversation(s.server.ctx.db, { members: [anna.id, erik.id] });
      const watcher = new TestSocket(s.url, anna.token);
      const stranger = new TestSocket(s.url, outsider.token);
      await Promise.all([watcher.loaded(), stranger.loaded()]);
      const erikSocket = new TestSocket(s.url, erik.token);
      await erikSocket.loaded();
      await watcher.next((f) => f.action === 'user_presence' && f.data.user_id === erik.id && f.data.online);
      erikSocket.close();
      await watcher.next((f) => f.action === 'user_presence' && f.data.user_id === erik.id && !f.data.online);
      expect(stranger.actions()).not.toContain('user_presence');
      watcher.close();
      stranger.close();
    } finally {
      await s.close();
    }
  });
});

describe('logs', () => {
  it('never contain a token, from a header or the websocket query', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-log-'));
    const lines: string[] = [];
    const logStream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = await buildServer(testConfig(dataDir), { logStream, announcePin: () => undefined });
    const base = await server.listen();
    try {
      const user = await signUp(base, 'Quiet');
      await call(base, 'GET', '/v1/me', { token: user.token });
      await call(base, 'GET', `/v1/me?token=${user.token}`, { token: user.token });
      const sock = new TestSocket(base, user.token);
      await sock.loaded();
      sock.close();
      await upgradeStatus(wsUrl(base, 'token=not-a-real-token&protocol=7'));
      expect(lines.length).toBeGreaterThan(3);
      const text = lines.join('');
      expect(text).not.toContain(user.token);
      expect(text).not.toContain('not-a-real-token');
    } finally {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
