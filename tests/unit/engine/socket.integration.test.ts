import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { EngineClock } from '../../../src/engine/clock';
import { type SocketDelivery, SocketConnection, type SocketParams } from '../../../src/engine/socket';
import { RECONNECT_DELAY_MS } from '../../../src/protocol/constants';
import { insertConversation } from '../../support/fixtures';
import { call, signUp, startTestServer, type TestServer, type TestUser } from '../../support/server';

/**
 * Timers that run only when the test says so: the reconnect happens exactly when the test has set up
 * what the client missed, with no sleeping. The network itself runs in real time.
 */
class ManualClock implements EngineClock {
  private time = 0;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): number {
    this.seq += 1;
    this.timers.set(this.seq, { at: this.time + ms, fn });
    return this.seq;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  random(): number {
    return 0;
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].fn();
    }
    this.time = until;
  }
}

/** Records deliveries and resolves waiters on the first (already seen or coming) match after a mark. */
class Deliveries {
  readonly all: SocketDelivery[] = [];
  private waiters: {
    from: number;
    match: (d: SocketDelivery) => boolean;
    resolve: (d: SocketDelivery) => void;
  }[] = [];

  push(d: SocketDelivery): void {
    this.all.push(d);
    const index = this.all.length - 1;
    this.waiters = this.waiters.filter((w) => {
      if (index < w.from || !w.match(d)) return true;
      w.resolve(d);
      return false;
    });
  }

  next(match: (d: SocketDelivery) => boolean, from = 0): Promise<SocketDelivery> {
    const seen = this.all.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ from, match, resolve }));
  }
}

const isLoaded = (d: SocketDelivery) => d.type === 'socketLoaded';
const textOf = (d: SocketDelivery) =>
  d.type === 'socket' && d.frame.action === 'conversation_message' ? d.frame.data.message.message : undefined;

describe('SocketConnection against the reference server', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-socket-'));
  let server: TestServer;
  let anna: TestUser;
  let bob: TestUser;
  let chat: number;
  beforeAll(async () => {
    server = await startTestServer({}, { keepDataDir: dataDir });
    anna = await signUp(server.url, 'Anna');
    bob = await signUp(server.url, 'Bob');
    chat = (await insertConversation(server.server.ctx.db, { members: [anna.id, bob.id] })).id;
  });
  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const send = (text: string, clientId: number) =>
    call(server.url, 'POST', `/v2/conversations/${chat}/messages`, {
      token: bob.token,
      json: { client_id: clientId, message: text },
    }).then((r) => r.data);

  it('connects, answers the ping, reconnects after the server drops it and gets the missed event replayed', async () => {
    const clock = new ManualClock();
    // What the engine persists: updated from the deliveries, read back at every connect.
    const stored: SocketParams = {
      wsBase: server.url.replace(/^http/, 'ws'),
      token: anna.token,
      lastEventId: 0,
      epoch: null,
    };
    const deliveries = new Deliveries();
    const sockets: { url: string; ws: WebSocket }[] = [];
    const connection = new SocketConnection({
      params: () => ({ ...stored }),
      onFrame: (d) => {
        deliveries.push(d);
        if (d.type === 'socketLoaded') {
          stored.lastEventId = d.lastEventId;
          stored.epoch = d.epoch;
        } else if (d.type === 'socketSkipped') {
          stored.lastEventId = d.id;
        } else if (d.frame.id !== undefined) {
          stored.lastEventId = d.frame.id;
        }
      },
      // `ws`'s WebSocket is a SocketLike as it is; the spy only watches what is sent.
      factory: (url) => {
        const ws = new WebSocket(url);
        vi.spyOn(ws, 'send');
        sockets.push({ url, ws });
        return ws;
      },
      clock,
      logger: { warn: () => undefined },
    });

    try {
      connection.start();
      expect(connection.state).toBe('connecting');
      const firstLoaded = await deliveries.next(isLoaded);
      expect(connection.state).toBe('online');
      expect(firstLoaded).toEqual({ type: 'socketLoaded', needSync: false, lastEventId: 0, epoch: expect.any(String) });
      const first = sockets[0];
      if (!first) throw new Error('no socket');
      expect(first.url).toBe(`${stored.wsBase}/ws?token=${anna.token}&last_message_id=0&protocol=7&deviceType=webclient`);
      // The server's first frame is a ping: it was answered before socket_loaded came.
      expect(first.ws.send).toHaveBeenCalledWith('{"action":"pong"}');

      // A live event raises the id the engine keeps.
      await send('while online', 1);
      const live = await deliveries.next((d) => textOf(d) === 'while online');
      const liveId = live.type === 'socket' ? live.frame.id : undefined;
      expect(liveId).toBeGreaterThan(0);
      expect(stored.lastEventId).toBe(liveId);

      // The server goes away: the connection closes and waits to reconnect.
      const port = Number(new URL(server.url).port);
      const closed = firstValueFrom(connection.state$.pipe(filter((s) => s === 'closed')));
      await server.close();
      await closed;

      // It comes back on the same port and data; a message is sent while the client is still away.
      server = await startTestServer({ port }, { keepDataDir: dataDir });
      await send('while away', 2);

      clock.advance(RECONNECT_DELAY_MS - 1);
      expect(sockets).toHaveLength(1);
      const mark = deliveries.all.length;
      clock.advance(1);
      expect(sockets).toHaveLength(2);
      expect(sockets[1]?.url).toBe(
        `${stored.wsBase}/ws?token=${anna.token}&last_message_id=${liveId}&protocol=7&deviceType=webclient&epoch=${stored.epoch}`,
      );

      const secondLoaded = await deliveries.next(isLoaded, mark);
      const afterReconnect = deliveries.all.slice(mark);
      // The missed message is replayed before socket_loaded, and nothing from before the drop is repeated.
      expect(afterReconnect.map((d) => textOf(d) ?? d.type)).toEqual(['while away', 'socketLoaded']);
      const replayed = afterReconnect[0];
      const replayedId = replayed?.type === 'socket' ? replayed.frame.id : undefined;
      expect(replayedId).toBeGreaterThan(liveId ?? Infinity);
      const epoch = firstLoaded.type === 'socketLoaded' ? firstLoaded.epoch : '';
      expect(secondLoaded).toEqual({ type: 'socketLoaded', needSync: false, lastEventId: replayedId, epoch });
      expect(connection.state).toBe('online');
      expect(sockets[1]?.ws.send).toHaveBeenCalledWith('{"action":"pong"}');
    } finally {
      connection.stop();
    }
  });
});
