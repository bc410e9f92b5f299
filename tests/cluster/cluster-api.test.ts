import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Store, sql } from '../../server/db/store';
import type { ServerFrame } from '../../src/protocol/socket';
import { type HaproxyProcess, type InProcessCluster, type RedisProcess, startInProcessCluster } from '../support/cluster';
import { uploadPng } from '../server/messages-support';
import { insertCommunity, insertCommunityChannels } from '../support/fixtures';
import { METRICS_SPELLINGS, rawRequest } from '../support/metricsSpellings';
import { call, signUp, TestSocket, type TestUser } from '../support/server';

/**
 * Issue 21: three nodes behind HAProxy, sharing one database and a Redis bus. Every call goes through the
 * proxy (so it lands on any node); each user's socket is opened on a node of its own, so the events of spec
 * §7 must cross from node to node: each receiver sees them live, once, and in id order without a gap.
 */

const SWEEP_MS = 300;
let cluster: InProcessCluster;
let nodes: InProcessCluster['nodes'];
let proxy: HaproxyProcess;
let redis: RedisProcess;

beforeAll(async () => {
  cluster = await startInProcessCluster(3, { busSweepMs: SWEEP_MS }, { proxy: true });
  ({ nodes, redis } = cluster);
  proxy = cluster.proxy as HaproxyProcess;
});

afterAll(async () => {
  await cluster?.stop();
});

/** The event frames a socket got (no pings, no socket_loaded). */
const eventsOf = (socket: TestSocket) => socket.frames.filter((f): f is Extract<ServerFrame, { id?: number }> & { id: number } => 'id' in f && typeof f.id === 'number');

/** A socket's event ids are consecutive from its first: nothing skipped, nothing twice, in order. */
function expectGapless(socket: TestSocket): void {
  const ids = eventsOf(socket).map((f) => f.id);
  const first = ids[0] ?? 0;
  expect(ids).toEqual(ids.map((_, i) => first + i));
}

/** A chat `owner` creates through the proxy with these members (by name), and its id. */
async function createChat(owner: TestUser, members: Record<string, TestUser>, name?: string): Promise<number> {
  const form: Record<string, string> = name ? { name } : {};
  Object.entries(members).forEach(([memberName, user], i) => {
    Object.assign(form, { [`member[${i}][type]`]: 'phone_nr', [`member[${i}][value]`]: user.phone, [`member[${i}][name]`]: memberName });
  });
  const created = await call<{ conversation: { id: number } }>(proxy.url, 'POST', '/v2/conversations', { token: owner.token, form });
  return created.data.conversation.id;
}

const onNode = (user: TestUser, node: number) => new TestSocket(nodes[node]?.url as string, user.token);

describe('three nodes behind HAProxy', () => {
  let anna: TestUser;
  let bo: TestUser;
  let cleo: TestUser;

  beforeAll(async () => {
    [anna, bo, cleo] = [await signUp(proxy.url, 'Anna'), await signUp(proxy.url, 'Bo'), await signUp(proxy.url, 'Cleo')];
  });

  it('serves the app through the proxy from every node, and keeps /metrics off it', async () => {
    const ready = await Promise.all(nodes.map(async (n) => (await fetch(`${n.url}/readyz`)).json()));
    expect(ready).toEqual(nodes.map(() => ({ status: 'ready', checks: { database: 'ok', bus: 'ok' } })));
    expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200);
  });

  it('lets through only what the app serves, and no spelling of /metrics (docs/server.md, "Metrics")', async () => {
    for (const target of METRICS_SPELLINGS) {
      const answer = await rawRequest(proxy.url, target, 'GET', { Authorization: 'Bearer anything' });
      // Refused by HAProxy (403 by its allow-list, 400 for a character it never forwards), or let through to a
      // node that has no such route (404).
      expect([400, 403, 404], target).toContain(answer.status);
      expect(answer.body, target).not.toMatch(/process_cpu|http_request_duration|# TYPE/);
    }
    // The allow-list: the API, the client's files and routes reach a node (these nodes serve no client: 404).
    expect((await rawRequest(proxy.url, '/v1/countries')).status).toBe(200);
    for (const target of ['/inbox/12', '/explore/3/channels/4', '/settings/help', '/assets/x.js', '/login', '/']) {
      expect((await rawRequest(proxy.url, target)).status, target).toBe(404);
    }
    // Anything else, and the encoded or dotted spellings of allowed paths, are refused by the proxy itself.
    for (const target of ['/metrics', '/%6detrics', '/unknown', '/%76%31/countries', '/v1/../v1/countries', '//v1/countries', '/server-status']) {
      expect((await rawRequest(proxy.url, target)).status, target).toBe(403);
    }
  });

  it('serves each node’s metrics on a loopback port of its own, off the proxy', async () => {
    const ports = new Set<string>();
    for (const n of nodes) {
      const metricsUrl = n.server.metricsUrl as string;
      ports.add(new URL(metricsUrl).port);
      expect(new URL(metricsUrl).hostname).toBe('127.0.0.1');
      const text = await (await fetch(`${metricsUrl}/metrics`)).text();
      expect(text).toMatch(/^http_request_duration_seconds_count\{/m);
    }
    expect(ports.size).toBe(nodes.length);
    expect(ports.has(new URL(proxy.url).port)).toBe(false);
  });

  it('lets users on different nodes chat, react, edit and delete, each seeing the other live and in order', async () => {
    const [sa, sb] = [onNode(anna, 0), onNode(bo, 1)];
    await Promise.all([sa.loaded(), sb.loaded()]);
    const chat = await createChat(anna, { Bo: bo });
    const sent: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const r = await call<{ message: { id: number } }>(proxy.url, 'POST', `/v2/conversations/${chat}/messages`, {
        token: anna.token,
        json: { client_id: i, message: `hej ${i}` },
      });
      sent.push(r.data.message.id);
    }
    const last = sent.at(-1) as number;
    await call(proxy.url, 'POST', `/v2/conversations/${chat}/messages/${last}/reactions`, { token: bo.token, json: { reaction: '👍' } }).then((r) => r.data);
    await call(proxy.url, 'POST', `/v2/conversations/${chat}/edit_message`, { token: anna.token, json: { id: last, text: 'hej då' } }).then((r) => r.data);
    await call(proxy.url, 'POST', `/v2/conversations/${chat}/delete/messages`, { token: anna.token, json: { message_ids: [sent[0]] } }).then((r) => r.data);

    await sb.next((f) => f.action === 'conversation_message_delete');
    await sa.next((f) => f.action === 'reactions_changed');
    const texts = eventsOf(sb)
      .filter((f) => f.action === 'conversation_message')
      .map((f) => (f.data as { message: { message: string } }).message.message);
    expect(texts).toEqual(['hej 1', 'hej 2', 'hej 3', 'hej 4', 'hej 5']);
    expect(eventsOf(sb).map((f) => f.action)).toEqual(
      expect.arrayContaining(['reactions_changed', 'conversation_message_edited', 'conversation_message_delete']),
    );
    expect(eventsOf(sa).map((f) => f.action)).toEqual(expect.arrayContaining(['reactions_changed', 'conversation_message_edited']));
    expectGapless(sa);
    expectGapless(sb);
    sa.close();
    sb.close();
  });

  it('lets community members on different nodes join a channel, post and comment', async () => {
    const [owner, member] = [await signUp(proxy.url, 'Owner', '62'), await signUp(proxy.url, 'Member', '62')];
    const db = nodes[0]?.server.ctx.db;
    if (!db) throw new Error('no node');
    const community = await insertCommunity(db, { name: 'Cluster Club', ownerId: owner.id, members: [member.id] });
    const { general } = await insertCommunityChannels(db, { communityId: community.id, ownerId: owner.id, members: [owner.id] });
    const [so, sm] = [onNode(owner, 2), onNode(member, 0)];
    await Promise.all([so.loaded(), sm.loaded()]);
    await call(proxy.url, 'POST', `/v1/channels/${general.id}/join`, { token: member.token }).then((r) => r.data);
    await sm.next((f) => f.action === 'inbox_channel_added');
    const posted = await call<{ post: { id: number } }>(proxy.url, 'POST', `/v1/channels/${general.id}/posts`, {
      token: owner.token,
      json: { message: 'Welcome' },
    });
    await sm.next((f) => f.action === 'conversation_message');
    await call(proxy.url, 'POST', `/v1/channels/${general.id}/post_comments`, {
      token: member.token,
      json: { post_id: posted.data.post.id, message: 'Thanks' },
    }).then((r) => r.data);
    const comment = await so.next((f) => f.action === 'channel_post_comment_added');
    expect((comment as { data: unknown }).data).toMatchObject({ post_id: posted.data.post.id, comment: { message: 'Thanks', user_id: member.id } });
    expectGapless(so);
    expectGapless(sm);
    so.close();
    sm.close();
  });

  it('serves a file uploaded through one node from every node (the shared file storage)', async () => {
    const name = await uploadPng({ url: nodes[0]?.url as string }, anna);
    for (const n of nodes) {
      const r = await fetch(`${n.url}/files/${name}`);
      expect([r.status, r.headers.get('content-type')]).toEqual([200, 'image/png']);
      await r.arrayBuffer();
    }
  });

  it('delivers a burst from users on every node to every member once, in order', async () => {
    const sockets = [onNode(anna, 0), onNode(bo, 1), onNode(cleo, 2)];
    await Promise.all(sockets.map((s) => s.loaded()));
    const chat = await createChat(anna, { Bo: bo, Cleo: cleo }, 'Burst');
    const PER_USER = 30;
    await Promise.all(
      [anna, bo, cleo].map(async (user, u) => {
        for (let i = 0; i < PER_USER; i++) {
          await call(proxy.url, 'POST', `/v2/conversations/${chat}/messages`, {
            token: user.token,
            json: { client_id: 1000 * (u + 1) + i, message: `${u}:${i}` },
          }).then((r) => r.data);
        }
      }),
    );
    const messagesIn = (s: TestSocket) =>
      eventsOf(s)
        .filter((f) => f.action === 'conversation_message' && (f.data as { conversation_id: number }).conversation_id === chat)
        .map((f) => (f.data as { message: { id: number } }).message.id);
    for (const s of sockets) await expect.poll(() => messagesIn(s).length, { timeout: 10_000 }).toBe(3 * PER_USER);
    // Every message but the system ones, a NULL type included (PostgreSQL's IS NOT takes only NULL, TRUE or FALSE).
    const stored = async (db: Store) =>
      (
        await db.all<{ id: number }>(
          sql`SELECT id FROM messages WHERE conversation_id = ${chat} AND (type IS NULL OR type != ${'system'}) ORDER BY id`,
        )
      ).map((r) => r.id);
    const ids = await stored(nodes[1]?.server.ctx.db as Store);
    expect(ids.length).toBeGreaterThanOrEqual(3 * PER_USER);
    for (const s of sockets) {
      // Once each, in the order they were stored.
      expect(messagesIn(s)).toEqual([...messagesIn(s)].sort((a, b) => a - b));
      expect(new Set(messagesIn(s)).size).toBe(3 * PER_USER);
      expectGapless(s);
      s.close();
    }
  });

  it('loses nothing while Redis is down: the sweep brings the events, and the bus works again after', async () => {
    const [sa, sb] = [onNode(anna, 0), onNode(bo, 1)];
    await Promise.all([sa.loaded(), sb.loaded()]);
    const chat = await createChat(anna, { Bo: bo });
    const send = (text: string, clientId: number) =>
      call(proxy.url, 'POST', `/v2/conversations/${chat}/messages`, { token: anna.token, json: { client_id: clientId, message: text } }).then((r) => r.data);
    const textsAtBo = () =>
      eventsOf(sb)
        .filter((f) => f.action === 'conversation_message' && (f.data as { conversation_id: number }).conversation_id === chat)
        .map((f) => (f.data as { message: { message: string } }).message.message);

    await redis.kill();
    const down = await fetch(`${nodes[1]?.url}/readyz`);
    expect([down.status, await down.json()]).toEqual([503, { status: 'unavailable', checks: { database: 'ok', bus: 'failed' } }]);
    for (let i = 1; i <= 3; i++) await send(`while down ${i}`, 500 + i);
    await expect.poll(textsAtBo, { timeout: 5_000 }).toEqual(['while down 1', 'while down 2', 'while down 3']);
    await redis.restart();
    await expect.poll(async () => (await fetch(`${nodes[1]?.url}/readyz`)).status, { timeout: 10_000 }).toBe(200);
    await send('after', 600);
    await expect.poll(textsAtBo, { timeout: 5_000 }).toEqual(['while down 1', 'while down 2', 'while down 3', 'after']);
    expectGapless(sb);
    sa.close();
    sb.close();
  });
});
