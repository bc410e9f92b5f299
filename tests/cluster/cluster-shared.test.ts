import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_IP_MESSAGE } from '../../server/http/authIpLimit';
import { SEND_RATE_MESSAGE } from '../../server/http/sendRateLimit';
import type { ServerFrame } from '../../src/protocol/socket';
import { type InProcessCluster, startInProcessCluster } from '../support/cluster';
import { insertConversation } from '../support/fixtures';
import { call, nextPhone, signUp, TestSocket, type TestUser } from '../support/server';

/**
 * Issue 21: what the nodes share through Redis — the send rate limit, the per-address sign-in limit and
 * presence — holds across nodes: a user whose requests land on two nodes is limited once, not twice, and is
 * online while any node holds one of their sockets.
 */

/** Four sign-ups (two requests each) fit; the test of this limit, last, spends the rest. */
const AUTH_IP_LIMIT = 10;
let cluster: InProcessCluster;
const url = (node: number) => cluster.nodes[node]?.url as string;

beforeAll(async () => {
  cluster = await startInProcessCluster(2, { sendRateLimit: 3, sendRateWindowMs: 60_000, authIpLimit: AUTH_IP_LIMIT, authIpWindowMs: 60_000 });
});

afterAll(async () => {
  await cluster?.stop();
});

describe('limits shared by the nodes', () => {
  it('counts a user’s sends on every node against one bucket', async () => {
    const [anna, bo] = [await signUp(url(0), 'Anna'), await signUp(url(1), 'Bo')];
    const { id } = await insertConversation(cluster.nodes[0]?.server.ctx.db as never, { members: [anna.id, bo.id] });
    const send = (node: number, clientId: number) =>
      call(url(node), 'POST', `/v2/conversations/${id}/messages`, { token: anna.token, json: { client_id: clientId, message: `m${clientId}` } });
    // Alternating nodes: alone, each would let three through (six in all).
    const statuses = [];
    for (let i = 1; i <= 5; i++) statuses.push((await send(i % 2, i)).status);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await send(0, 9);
    expect(refused.body).toMatchObject({ success: false, status: 429, message: SEND_RATE_MESSAGE, code: 'send_rate_limited' });
  });

});

describe('presence across nodes', () => {
  let watcher: TestUser;
  let mover: TestUser;

  beforeAll(async () => {
    const db = cluster.nodes[0]?.server.ctx.db;
    if (!db) throw new Error('no node');
    [watcher, mover] = [await signUp(url(0), 'Watcher'), await signUp(url(1), 'Mover')];
    await insertConversation(db, { members: [watcher.id, mover.id] });
  });

  const presenceOf = (socket: TestSocket, userId: number) =>
    socket.frames
      .filter((f): f is Extract<ServerFrame, { action: 'user_presence' }> => f.action === 'user_presence')
      .filter((f) => f.data.user_id === userId)
      .map((f) => f.data.online);

  it('is online while any node holds a socket of the user, and offline when the last one closes', async () => {
    const watching = new TestSocket(url(1), watcher.token);
    await watching.loaded();
    const first = new TestSocket(url(0), mover.token);
    await first.loaded();
    await expect.poll(() => presenceOf(watching, mover.id)).toEqual([true]);
    const second = new TestSocket(url(1), mover.token);
    await second.loaded();
    first.close();
    await first.closed;
    // The socket on the other node still counts: no "offline" in between.
    await new Promise((r) => setTimeout(r, 500));
    expect(presenceOf(watching, mover.id)).toEqual([true]);
    // Asked later (a chat opened now, issue 23), a node with none of the mover's sockets says online too.
    const asked = (node: number) => call<{ online: boolean; last_seen: string | null }>(url(node), 'GET', `/v1/users/${mover.id}/presence`, { token: watcher.token });
    expect((await asked(0)).data).toMatchObject({ online: true });
    second.close();
    await expect.poll(() => presenceOf(watching, mover.id)).toEqual([true, false]);
    await expect.poll(async () => (await asked(0)).data?.online).toBe(false);
    expect((await asked(1)).data?.last_seen).toMatch(/^\d+$/);
    watching.close();
  });
});

describe('the sign-in limit shared by the nodes', () => {
  it('counts an address’s sign-in requests on every node together', async () => {
    // Four sign-ups above spent eight of the ten, four on each node; alone, each node would allow six more.
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(url(i % 2), 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() } })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const refused = await call(url(1), 'POST', '/v1/auth/pin', { form: { phone_nr: nextPhone() } });
    expect(refused.body).toMatchObject({ status: 429, message: AUTH_IP_MESSAGE });
  });
});
