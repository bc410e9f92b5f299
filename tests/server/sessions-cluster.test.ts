import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionsAnswer } from '../../src/protocol/api';
import { SOCKET_CLOSE_SESSION_ENDED } from '../../src/protocol/constants';
import { type BuiltServer, buildServer } from '../../server/app';
import { testConfig } from '../../server/config';
import type { BusNote, EventBus } from '../../server/realtime/bus';
import { testDatabaseUrl } from '../support/postgresSchema';
import { call, nextPhone, TEST_PIN, TestSocket } from '../support/server';

/**
 * Sessions on a node of several (docs/server.md "Sessions"): ending a session tells the other nodes (a
 * `sessionsEnded` note), and a node that hears one closes that session's sockets, as the node that ended it does.
 */

/** A bus the test plays: what this node publishes is kept; notes "from other nodes" are handed in by hand. */
class PlayedBus implements EventBus {
  readonly shared = true;
  readonly published: BusNote[] = [];
  private handler: ((note: BusNote) => void) | undefined;
  publish(note: BusNote): void {
    this.published.push(note);
  }
  onNote(handler: (note: BusNote) => void): void {
    this.handler = handler;
  }
  onReconnect(): void {}
  async check(): Promise<void> {}
  async close(): Promise<void> {}
  hear(note: BusNote): void {
    this.handler?.(note);
  }
}

const bus = new PlayedBus();
let server: BuiltServer;
let base: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-sessions-cluster-'));
  const databaseUrl = await testDatabaseUrl(dataDir);
  server = await buildServer(testConfig(dataDir, { busSweepMs: 60_000, ...(databaseUrl ? { databaseUrl } : {}) }), {
    logStream: false,
    bus,
  });
  base = await server.listen();
});

afterAll(async () => {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(phone: string): Promise<string> {
  await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
  return (await call<{ token: string }>(base, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } })).data.token;
}

const currentId = async (token: string) =>
  (await call<SessionsAnswer>(base, 'GET', '/v1/me/sessions', { token })).data.sessions.find((s) => s.current)!.id;

describe('sessions across nodes', () => {
  it('tells the other nodes of an ended session, and closes a socket whose session another node ended', async () => {
    const phone = nextPhone();
    const [mine, other, third] = [await signIn(phone), await signIn(phone), await signIn(phone)];
    const [otherId, thirdId] = [await currentId(other), await currentId(third)];

    await call(base, 'DELETE', `/v1/me/sessions/${otherId}`, { token: mine }).then((r) => r.data);
    expect(bus.published.filter((n) => n.kind === 'sessionsEnded')).toEqual([{ kind: 'sessionsEnded', sessions: [otherId] }]);

    // Another node ended the third session (its row is gone there); its socket here closes on the note.
    const socket = new TestSocket(base, third);
    const mySocket = new TestSocket(base, mine);
    await Promise.all([socket.loaded(), mySocket.loaded()]);
    bus.hear({ kind: 'sessionsEnded', sessions: [thirdId] });
    expect(await socket.closed).toBe(SOCKET_CLOSE_SESSION_ENDED);
    expect(mySocket.ws.readyState).toBe(mySocket.ws.OPEN);
    mySocket.close();
  });
});
