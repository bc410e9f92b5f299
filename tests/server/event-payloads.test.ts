import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { openStore } from '../../server/db/open';
import { MIGRATIONS } from '../../server/db/schema';
import { type Query, sql } from '../../server/db/store';
import { EventLog } from '../../server/realtime/events';
import { insertConversation } from '../support/fixtures';
import { call, signUp, startTestServer, type TestServer, TestSocket, type TestUser } from '../support/server';

/** Issue 11: an event's data is stored once, however many receive it, and goes with its last receiver's row. */

const send = (base: string, user: TestUser, conversationId: number, text: string, clientId: number) =>
  call(base, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token: user.token,
    json: { client_id: clientId, message: text },
  }).then((r) => r.data);

describe('stored events', () => {
  let s: TestServer;
  let users: TestUser[];
  const count = async (query: Query<{ n: number }>) => (await s.server.ctx.db.get(query))!.n;
  beforeAll(async () => {
    s = await startTestServer({ eventRetention: 3 });
    users = [];
    for (const name of ['Anna', 'Erik', 'Nina', 'Olle']) users.push(await signUp(s.url, name));
  });
  afterAll(() => s.close());

  it('keeps a message’s data once for a group of four, with a row per receiver', async () => {
    const group = (await insertConversation(s.server.ctx.db, { members: users.map((u) => u.id), name: 'Four', isGroup: true })).id;
    const payloads = await count(sql`SELECT COUNT(*) AS n FROM event_payloads`);
    const events = await count(sql`SELECT COUNT(*) AS n FROM events`);
    await send(s.url, users[0] as TestUser, group, 'to four', 1);
    expect(await count(sql`SELECT COUNT(*) AS n FROM event_payloads`)).toBe(payloads + 1);
    expect(await count(sql`SELECT COUNT(*) AS n FROM events`)).toBe(events + 4);
  });

  it('keeps a payload until the last receiver prunes its row', async () => {
    const [anna, erik, nina] = users as [TestUser, TestUser, TestUser];
    const db = s.server.ctx.db;
    const chat = (await insertConversation(db, { members: [anna.id, erik.id] })).id;
    const annaNina = (await insertConversation(db, { members: [anna.id, nina.id] })).id;
    const erikNina = (await insertConversation(db, { members: [erik.id, nina.id] })).id;
    const probe = new TestSocket(s.url, erik.token);
    const before = (await probe.loaded()) as { data: { last_message_id: number; epoch: string } };
    probe.close();
    const shared = () => count(sql`SELECT COUNT(*) AS n FROM event_payloads WHERE data LIKE '%"message":"shared"%'`);

    await send(s.url, anna, chat, 'shared', 30);
    expect(await shared()).toBe(1);
    // Anna's retention (3) passes the shared event; Erik still has it.
    for (let i = 0; i < 3; i++) await send(s.url, nina, annaNina, `to anna ${i}`, 40 + i);
    expect(await shared()).toBe(1);
    const again = new TestSocket(s.url, erik.token, before.data.last_message_id, {}, before.data.epoch);
    expect(await again.loaded()).toMatchObject({ data: { need_sync: false } });
    expect(again.frames.flatMap((f) => (f.action === 'conversation_message' ? [f.data.message.message] : []))).toEqual([
      'shared',
    ]);
    again.close();
    // Now Erik's passes it too: nobody can be replayed it, so its data goes.
    for (let i = 0; i < 3; i++) await send(s.url, nina, erikNina, `to erik ${i}`, 50 + i);
    expect(await shared()).toBe(0);
    expect(await count(sql`SELECT COUNT(*) AS n FROM event_payloads WHERE id NOT IN (SELECT payload_id FROM events)`)).toBe(0);
    expect(await count(sql`SELECT COUNT(*) AS n FROM events WHERE user_id = ${erik.id}`)).toBe(3);
  });
});

describe('event counters', () => {
  let wide: TestServer;
  // Retention well above what the test sends: every event it stores is still there to be counted.
  beforeAll(async () => {
    wide = await startTestServer({ eventRetention: 1_000 });
  });
  afterAll(() => wide.close());

  it('gives a new user a counter, and every receiver of sends side by side in overlapping groups gapless ids', async () => {
    const db = wide.server.ctx.db;
    const late = await signUp(wide.url, 'Pia');
    expect(await db.get(sql`SELECT seq FROM event_counters WHERE user_id = ${late.id}`)).toEqual({ seq: 0 });
    const users: TestUser[] = [];
    for (const name of ['Anna', 'Erik', 'Nina', 'Olle']) users.push(await signUp(wide.url, name));
    const everyone = [...users, late];
    const memberLists = [everyone, everyone.slice(1), [late, users[2], users[0]]] as TestUser[][];
    const groups = await Promise.all(
      memberLists.map(async (members, i) => (await insertConversation(db, { members: members.map((u) => u.id), name: `G${i}`, isGroup: true })).id),
    );
    const before = new Map(await wide.server.ctx.events.currentSeqs(everyone.map((u) => u.id)));
    // Thirty sends at once (on PostgreSQL up to ten transactions run together), each bumping its group's counters.
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const g = i % 3;
        const sender = (memberLists[g] as TestUser[])[Math.floor(i / 3) % 2] as TestUser;
        return send(wide.url, sender, groups[g] as number, `side by side ${i}`, 100 + i);
      }),
    );
    const after = new Map(await wide.server.ctx.events.currentSeqs(everyone.map((u) => u.id)));
    for (const user of everyone) {
      const from = before.get(user.id) ?? 0;
      const rows = await db.all<{ seq: number }>(sql`SELECT seq FROM events WHERE user_id = ${user.id} AND seq > ${from} ORDER BY seq`);
      const to = after.get(user.id) ?? 0;
      expect(to).toBeGreaterThan(from);
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: to - from }, (_, k) => from + 1 + k));
    }
  });
});

describe('migrations 4 and 8', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'messenger-migration-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('moves the events of a version 3 database to payloads and its counters to their table, keeping ids and replay', async () => {
    const old = new Database(path.join(dataDir, 'messenger.db'));
    old.pragma('journal_mode = WAL');
    for (const sql of MIGRATIONS.slice(0, 3)) old.exec(sql);
    old.pragma('user_version = 3');
    const id = Number(
      old
        .prepare("INSERT INTO users (stid, phone_nr, country_code, nickname, created_at, event_seq) VALUES ('u1', '+46700000001', '46', 'Anna', 0, 2)")
        .run().lastInsertRowid,
    );
    const insert = old.prepare('INSERT INTO events (user_id, seq, action, data, created_at) VALUES (?, ?, ?, ?, 0)');
    insert.run(id, 1, 'conversation_edit', JSON.stringify({ conversation_id: 7, n: 1 }));
    insert.run(id, 2, 'conversation_edit', JSON.stringify({ conversation_id: 7, n: 2 }));
    const epoch = (old.prepare("SELECT value FROM server_meta WHERE key = 'epoch'").get() as { value: string }).value;
    old.close();

    // Migrated by opening the SQLite file; then read back through the store and event log the server uses.
    const { db: migrated } = openDatabase(dataDir);
    try {
      expect(migrated.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    } finally {
      migrated.close();
    }
    const { store: db } = await openStore({ dataDir });
    try {
      const replay = await (await EventLog.open(db, 100, () => 0)).replay(id, 0, epoch);
      expect(replay).toEqual({
        needSync: false,
        current: 2,
        frames: [
          { action: 'conversation_edit', id: 1, data: { conversation_id: 7, n: 1 } },
          { action: 'conversation_edit', id: 2, data: { conversation_id: 7, n: 2 } },
        ],
      });
    } finally {
      await db.close();
    }
  });
});
