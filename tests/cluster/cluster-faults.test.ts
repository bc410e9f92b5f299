import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalCluster } from '../../scripts/cluster/localCluster';
import { Engine } from '../../src/engine/engine';
import { MemoryStorage } from '../../src/engine/storage/storage';
import { sql } from '../../server/db/store';
import { readStore } from '../support/readOnlyStore';
import { signIn, until, wsFactory } from '../unit/engine/support/liveEngines';

/**
 * Issue 21, faults of the cluster shape, with exact counts in one table: `npm run cluster`'s processes
 * (three nodes sharing PostgreSQL and Redis, HAProxy in front) and three real engines (outbox,
 * socket, replay) signed in through the proxy, each sending into one group while a node is SIGKILLed,
 * Redis is killed and started again, PostgreSQL is restarted, and every node is restarted in turn. After each: every message stored
 * once, shown once in every member's view, each sender's in the order sent.
 */

interface Member {
  name: string;
  engine: Engine;
  userId: number;
  phone: string;
  /** When its connection last left 'online', and how long the longest way back took. */
  droppedAt: number | null;
  longestReconnectMs: number;
}

interface Row {
  fault: string;
  sent: number;
  stored: number;
  shownMin: number;
  duplicates: number;
  lost: number;
  longestReconnectMs: number;
}

const PER_MEMBER = 12;
const SEND_EVERY_MS = 150;
let cluster: LocalCluster;
let dataDir: string;
const members: Member[] = [];
let chat = 0;
const table: Row[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-cluster-faults-'));
  cluster = await LocalCluster.start({
    nodes: 3,
    port: 0,
    dataDir,
    checkMs: 300,
    env: { MESSENGER_DEV_PIN: '1234', SEED_DEMO: '0', AUTH_IP_LIMIT: '0', SEND_RATE_LIMIT: '0', BUS_SWEEP_MS: '500', LOG_LEVEL: 'warn' },
  });
  for (const name of ['Ann', 'Bengt', 'Cecilia']) {
    const engine = new Engine({ storage: new MemoryStorage(), apiBase: cluster.url, socketFactory: wsFactory, log: () => undefined });
    await engine.start();
    const user = await signIn(engine, name);
    await until(engine.connection(), (c) => c === 'online');
    const member: Member = { name, engine, ...user, droppedAt: null, longestReconnectMs: 0 };
    engine.connection().subscribe((state) => {
      if (state !== 'online' && member.droppedAt === null) member.droppedAt = performance.now();
      if (state === 'online' && member.droppedAt !== null) {
        member.longestReconnectMs = Math.max(member.longestReconnectMs, performance.now() - member.droppedAt);
        member.droppedAt = null;
      }
    });
    members.push(member);
  }
  const [first, ...others] = members as [Member, ...Member[]];
  const { conversation } = await first.engine.call('createConversation', {
    name: 'Faults',
    members: others.map((m) => ({ name: m.name, value: m.phone })),
  });
  chat = conversation.id;
  for (const m of members) {
    await until(m.engine.conversations(), (list) => list.some((c) => c.conversation.id === chat));
    await m.engine.openConversation(chat);
  }
}, 180_000);

afterAll(async () => {
  for (const m of members) await m.engine.stop();
  await cluster?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (table.length > 0) {
    console.log('\nCluster faults (three nodes, HAProxy, Redis; three engines sending into one group)');
    console.table(table);
  }
});

/** Every member sends PER_MEMBER texts tagged `tag`, one every SEND_EVERY_MS, while `fault` runs. */
async function burst(tag: string, fault: () => Promise<void>): Promise<string[]> {
  for (const m of members) m.longestReconnectMs = 0;
  const texts: string[] = [];
  const sending = members.map(async (m) => {
    for (let i = 0; i < PER_MEMBER; i++) {
      const text = `${tag} ${m.name} ${i}`;
      texts.push(text);
      await m.engine.sendMessage(chat, { text });
      await new Promise((r) => setTimeout(r, SEND_EVERY_MS));
    }
  });
  await Promise.all([...sending, fault()]);
  return texts;
}

/** Waits until every outbox is empty and every view holds the burst, then counts it into the table. */
async function settle(fault: string, tag: string, texts: string[]): Promise<Row> {
  for (const m of members) await until(m.engine.outbox(), (o) => o.length === 0);
  for (const m of members) {
    await until(m.engine.messages(chat), (w) => texts.every((t) => w.messages.some((x) => x.message === t)));
  }
  const stored = await storedTexts(tag);
  let shownMin = Number.POSITIVE_INFINITY;
  let duplicates = Math.max(0, stored.length - new Set(stored).size);
  for (const m of members) {
    const shown = (await firstValueFrom(m.engine.messages(chat))).messages.map((x) => x.message).filter((t) => t.startsWith(`${tag} `));
    shownMin = Math.min(shownMin, new Set(shown).size);
    duplicates += shown.length - new Set(shown).size;
    // Each sender's messages in the order they were sent.
    for (const sender of members) {
      const mine = shown.filter((t) => t.startsWith(`${tag} ${sender.name} `)).map((t) => Number(t.split(' ').at(-1)));
      expect(mine, `${m.name} sees ${sender.name}'s in order`).toEqual([...mine].sort((a, b) => a - b));
    }
  }
  const row: Row = {
    fault,
    sent: texts.length,
    stored: new Set(stored).size,
    shownMin,
    duplicates,
    lost: texts.filter((t) => !stored.includes(t)).length,
    longestReconnectMs: Math.round(Math.max(...members.map((m) => m.longestReconnectMs))),
  };
  table.push(row);
  return row;
}

/** The texts of the burst in the database the nodes share (their PostgreSQL, or SQLite in the data directory). */
async function storedTexts(tag: string): Promise<string[]> {
  return readStore({ dataDir, databaseUrl: cluster.databaseUrl }, async (db) =>
    (
      await db.all<{ message: string }>(sql`SELECT message FROM messages WHERE conversation_id = ${chat} AND message LIKE ${`${tag} %`}`)
    ).map((r) => r.message),
  );
}

describe('the cluster under faults', () => {
  it('loses nothing when a node is SIGKILLed mid-burst, and its clients are back on another node within 10 s', async () => {
    const texts = await burst('kill', async () => {
      await new Promise((r) => setTimeout(r, 600));
      await cluster.killNode(1);
    });
    const row = await settle('node SIGKILLed mid-burst', 'kill', texts);
    expect(row).toMatchObject({ stored: row.sent, shownMin: row.sent, duplicates: 0, lost: 0 });
    expect(row.longestReconnectMs).toBeLessThan(10_000);
    await cluster.startNode(1);
  });

  it('loses nothing when Redis is killed mid-burst and started again', async () => {
    const redis = cluster.ownRedis;
    if (!redis) throw new Error('the cluster has no Redis of its own');
    const texts = await burst('redis', async () => {
      await new Promise((r) => setTimeout(r, 400));
      await redis.kill();
      await new Promise((r) => setTimeout(r, 1_000));
      await redis.restart();
    });
    const row = await settle('Redis killed and restarted mid-burst', 'redis', texts);
    expect(row).toMatchObject({ stored: row.sent, shownMin: row.sent, duplicates: 0, lost: 0 });
  });

  it('loses nothing when PostgreSQL is restarted mid-burst: meanwhile requests get a clear 503 and the outboxes retry', async () => {
    const postgres = cluster.ownPostgres;
    if (!postgres) throw new Error('the cluster has no PostgreSQL of its own (install Debian’s postgresql)');
    let during: { status: number; message: unknown; retryAfter: string | null } | undefined;
    const texts = await burst('postgres', async () => {
      await new Promise((r) => setTimeout(r, 400));
      await postgres.shutdown();
      try {
        // A node asked straight (HAProxy may have taken them all out by now): the token cannot be checked, so
        // the answer is the database's 503, in the language asked for, not a 401 or a 500.
        const node = cluster.nodes[0]?.url as string;
        const answer = await fetch(`${node}/v1/me`, { headers: { 'Accept-Language': 'sv', 'Auth-Token': 'a-token-to-look-up' } });
        during = {
          status: answer.status,
          message: ((await answer.json()) as { message?: unknown }).message,
          retryAfter: answer.headers.get('retry-after'),
        };
        await new Promise((r) => setTimeout(r, 1_000));
      } finally {
        await postgres.restart();
      }
    });
    expect(during).toEqual({ status: 503, message: 'Tjänsten är inte tillgänglig just nu. Försök igen om en stund.', retryAfter: '2' });
    const row = await settle('PostgreSQL restarted mid-burst', 'postgres', texts);
    expect(row).toMatchObject({ stored: row.sent, shownMin: row.sent, duplicates: 0, lost: 0 });
  });

  it('loses nothing through a rolling restart of every node under load', async () => {
    const texts = await burst('roll', async () => {
      for (let i = 0; i < cluster.nodes.length; i++) {
        expect(await cluster.stopNode(i)).toBe(0);
        await cluster.startNode(i);
      }
    });
    const row = await settle('rolling restart of all three nodes', 'roll', texts);
    expect(row).toMatchObject({ stored: row.sent, shownMin: row.sent, duplicates: 0, lost: 0 });
    expect(row.longestReconnectMs).toBeLessThan(10_000);
  });
});
