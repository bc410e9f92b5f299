import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationsAnswer } from '../../src/protocol/api';
import type { Attachment } from '../../src/protocol/entities';
import { ManualClock } from '../../server/clock';
import { openStore } from '../../server/db/open';
import { list, type Query, type Store, sql } from '../../server/db/store';
import type { ConversationRow } from '../../server/domain/rows';
import { serializeConversation } from '../../server/domain/serialize';
import { DEMO_BOT, DEMO_USERS } from '../../server/seed/demo';
import { parseSeedArgs, UsageError } from '../../server/seed/options';
import { call, startTestServer, TEST_PIN, type TestServer } from '../support/server';

const DAY = 24 * 3600_000;
const clock = new ManualClock(Date.UTC(2026, 2, 10, 15, 30));

let s: TestServer;
let db: Store;
beforeAll(async () => {
  s = await startTestServer({ seedDemo: true }, { clock });
  db = s.server.ctx.db;
});
afterAll(() => s.close());

const count = async (query: Query<{ n: number }>) => (await db.get(query))!.n;
const userId = async (nickname: string) =>
  (await db.get<{ id: number }>(sql`SELECT id FROM users WHERE nickname = ${nickname}`))!.id;
const conversations = (where: Query<unknown>) => db.all<ConversationRow>(sql`SELECT * FROM conversations WHERE ${where}`);

describe('the demo world', () => {
  it('has the demo users and the bot, with no websocket events recorded', async () => {
    expect(await count(sql`SELECT COUNT(*) AS n FROM users`)).toBe(DEMO_USERS.length + 1);
    for (const u of DEMO_USERS) {
      expect(await db.get(sql`SELECT nickname, country_code FROM users WHERE phone_nr = ${u.phone}`)).toEqual({
        nickname: u.nickname,
        country_code: u.country_code,
      });
    }
    expect(DEMO_USERS.filter((u) => u.country_code === '46').length).toBeGreaterThanOrEqual(3);
    expect(DEMO_USERS.filter((u) => u.country_code === '62').length).toBeGreaterThanOrEqual(4);
    expect(await count(sql`SELECT COUNT(*) AS n FROM event_counters WHERE seq != 0`)).toBe(0);
    expect(await count(sql`SELECT COUNT(*) AS n FROM events`)).toBe(0);
  });

  it('has a one-to-one chat with a reply, an edit, a reaction and read receipts', async () => {
    const anna = await userId('Anna');
    const erik = await userId('Erik');
    const chats: ConversationRow[] = [];
    for (const c of await conversations(sql`is_group = 0`)) {
      const both = await count(
        sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${c.id} AND user_id IN (${anna}, ${erik})`,
      );
      if (both === 2) chats.push(c);
    }
    const [chat] = chats;
    expect(chat).toBeDefined();
    const id = chat!.id;
    expect(await count(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${id}`)).toBe(2);
    expect(await count(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${id}`)).toBeGreaterThanOrEqual(5);
    const reply = await db.get<{ c: number }>(
      sql`SELECT q.conversation_id AS c FROM messages m JOIN messages q ON q.id = m.quoted_id WHERE m.conversation_id = ${id}`,
    );
    expect(reply?.c).toBe(id);
    expect(await count(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${id} AND edited_at > created_at`)).toBe(1);
    expect(
      await count(sql`SELECT COUNT(*) AS n FROM reactions r JOIN messages m ON m.id = r.message_id WHERE m.conversation_id = ${id}`),
    ).toBeGreaterThanOrEqual(1);
    // Erik has read every message Anna sent.
    const annaSent = await count(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${id} AND user_id = ${anna}`);
    const erikRead = await count(
      sql`SELECT COUNT(*) AS n FROM receipts r JOIN messages m ON m.id = r.message_id
          WHERE m.conversation_id = ${id} AND r.user_id = ${erik} AND r.type = 'read'`,
    );
    expect(annaSent).toBeGreaterThan(0);
    expect(erikRead).toBe(annaSent);
  });

  it('has a group with an admin and a user_added event, a broadcast group, and a read-only demo chat', async () => {
    const groups = await conversations(sql`is_group = 1 AND community_id IS NULL AND reply_to = 0 AND is_demo = 0`);
    expect(groups.length).toBeGreaterThanOrEqual(1);
    const group = groups[0]!;
    const members = await count(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${group.id}`);
    expect(members).toBeGreaterThanOrEqual(3);
    expect(members).toBeLessThanOrEqual(4);
    const event = (await db.get<{ attachment: string }>(
      sql`SELECT attachment FROM messages WHERE conversation_id = ${group.id} AND type = 'system'`,
    ))!;
    const attachment = JSON.parse(event.attachment) as Attachment;
    expect(attachment).toMatchObject({ type: 'event', event_type: 'user_added' });
    const added = attachment.event?.user_id;
    expect(added).toBeDefined();
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${group.id} AND user_id = ${added ?? 0}`,
      ),
    ).toBe(1);

    const [broadcast, ...more] = await conversations(sql`reply_to = 1`);
    expect(more).toEqual([]);
    expect(broadcast).toMatchObject({ is_group: 1, show_numbers_to_all: 1, user_notifications_to_all: 1 });
    const broadcaster = await db.all<{ user_id: number }>(
      sql`SELECT user_id FROM conversation_members WHERE conversation_id = ${broadcast!.id} AND is_admin = 1`,
    );
    expect(broadcaster).toEqual([{ user_id: broadcast!.owner_id }]);
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM messages
            WHERE conversation_id = ${broadcast!.id} AND user_id = ${broadcast!.owner_id} AND audience IS NULL`,
      ),
    ).toBeGreaterThanOrEqual(3);
    // Only the broadcaster posts to everybody; a member's reply is for the broadcaster alone.
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM messages
            WHERE conversation_id = ${broadcast!.id} AND user_id != ${broadcast!.owner_id} AND audience IS NULL`,
      ),
    ).toBe(0);

    const demos = await conversations(sql`is_demo = 1`);
    expect(demos).toHaveLength(1);
    expect(await count(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${demos[0]!.id}`)).toBeGreaterThanOrEqual(1);
    expect(await count(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${demos[0]!.id}`)).toBe(
      DEMO_USERS.length + 1,
    );
  });

  it('has an Indonesian community with an announcements feed and two channels with posts, comments and reactions', async () => {
    const community = (await db.get<{ id: number; country_code: string; owner_id: number }>(
      sql`SELECT * FROM communities WHERE name = 'Kopi Nusantara'`,
    ))!;
    expect(community.country_code).toBe('62');
    expect(await count(sql`SELECT COUNT(*) AS n FROM community_members WHERE community_id = ${community.id}`)).toBeGreaterThanOrEqual(4);
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM community_members WHERE community_id = ${community.id} AND is_admin = 1 AND is_owner = 0`,
      ),
    ).toBe(1);
    const channels = await conversations(sql`community_id = ${community.id}`);
    const feeds = channels.filter((c) => c.group_type === 'feed' && c.is_community_announcements === 1);
    const others = channels.filter((c) => c.group_type === 'channel' && c.is_community_announcements === 0);
    expect(feeds).toHaveLength(1);
    expect(others).toHaveLength(2);
    expect(others.filter((c) => c.read_only === 1)).toHaveLength(1);
    // Everybody in the community follows its announcements, and the admin may post there.
    expect(await count(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${feeds[0]!.id}`)).toBe(
      await count(sql`SELECT COUNT(*) AS n FROM community_members WHERE community_id = ${community.id}`),
    );
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM conversation_members
            WHERE conversation_id = ${feeds[0]!.id} AND is_admin = 1 AND can_create_posts = 1`,
      ),
    ).toBe(2);
    for (const c of channels) {
      expect(await count(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${c.id}`)).toBeGreaterThanOrEqual(2);
    }
    const ids = list(channels.map((c) => c.id));
    expect(await count(sql`SELECT COUNT(*) AS n FROM comments WHERE channel_id IN ${ids}`)).toBeGreaterThanOrEqual(5);
    expect(
      await count(sql`SELECT COUNT(*) AS n FROM comments WHERE channel_id IN ${ids} AND parent_comment_id IS NOT NULL`),
    ).toBeGreaterThanOrEqual(1);
    expect(
      await count(sql`SELECT COUNT(*) AS n FROM reactions r JOIN messages m ON m.id = r.message_id WHERE m.conversation_id IN ${ids}`),
    ).toBeGreaterThanOrEqual(2);
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM comment_reactions r JOIN comments c ON c.id = r.comment_id WHERE c.channel_id IN ${ids}`,
      ),
    ).toBeGreaterThanOrEqual(1);
    // A reply sits under a comment of the same post.
    expect(
      await count(sql`SELECT COUNT(*) AS n FROM comments c JOIN comments p ON p.id = c.parent_comment_id WHERE p.post_id != c.post_id`),
    ).toBe(0);

    const second = await db.all<{ id: number }>(sql`SELECT id FROM communities WHERE name != 'Kopi Nusantara'`);
    expect(second).toHaveLength(1);
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM community_members WHERE community_id = ${second[0]!.id} AND user_id = ${community.owner_id}`,
      ),
    ).toBe(0);
  });

  it('keeps counts, admins, last messages and last reads consistent', async () => {
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM messages m WHERE comments_count != (SELECT COUNT(*) FROM comments c WHERE c.post_id = m.id)`,
      ),
    ).toBe(0);
    expect(await count(sql`SELECT COUNT(*) AS n FROM messages WHERE comments_count > 0`)).toBeGreaterThanOrEqual(3);
    const groupsWithoutAdmin = await conversations(
      sql`is_group = 1 AND NOT EXISTS (SELECT 1 FROM conversation_members m WHERE m.conversation_id = conversations.id AND m.is_admin = 1)`,
    );
    expect(groupsWithoutAdmin).toEqual([]);
    for (const c of await conversations(sql`1 = 1`)) {
      const last = (await db.get<{ id: number; created_at: number }>(
        sql`SELECT id, created_at FROM messages WHERE conversation_id = ${c.id} AND audience IS NULL ORDER BY id DESC LIMIT 1`,
      ))!;
      expect([c.last_message_id, c.last_message_at]).toEqual([last.id, last.created_at]);
    }
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM conversation_members cm JOIN conversations c ON c.id = cm.conversation_id
            WHERE cm.last_read_message_id > c.last_message_id
              AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = cm.last_read_message_id AND m.audience IS NOT NULL)`,
      ),
    ).toBe(0);
    // Messages follow their ids in time, as a live server would have written them.
    expect(
      await count(
        sql`SELECT COUNT(*) AS n FROM messages a JOIN messages b ON a.conversation_id = b.conversation_id
            WHERE a.id < b.id AND a.created_at > b.created_at`,
      ),
    ).toBe(0);
  });

  it('leaves exactly one chat unread for Anna', async () => {
    const anna = await userId('Anna');
    const rows = await db.all<ConversationRow>(
      sql`SELECT c.* FROM conversations c JOIN conversation_members m ON m.conversation_id = c.id WHERE m.user_id = ${anna}`,
    );
    const unread = [];
    for (const row of rows) {
      const c = await serializeConversation(db, row, anna, 0);
      if (c.unread_message_count > 0) unread.push(c);
    }
    expect(unread.map((c) => [c.name, c.unread_message_count])).toEqual([['Bokklubben 📚', 2]]);
  });

  it('spreads messages over the last days, today and yesterday included', async () => {
    const now = clock.now();
    const times = (await db.all<{ t: number }>(sql`SELECT created_at AS t FROM messages`)).map((r) => r.t);
    expect(times.every((t) => t < now && t > now - 5 * DAY)).toBe(true);
    expect(times.some((t) => t > now - 12 * 3600_000)).toBe(true);
    expect(times.some((t) => t < now - DAY && t > now - 2 * DAY)).toBe(true);
    expect(times.some((t) => t < now - 2 * DAY)).toBe(true);
  });
});

describe('signing in as a demo user', () => {
  it('works through the real PIN flow and shows the seeded nickname and chats', async () => {
    const anna = DEMO_USERS[0];
    expect((await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: anna.phone } })).data).toEqual({ status: 'sent' });
    const { token, user_id } = (
      await call<{ token: string; user_id: number }>(s.url, 'POST', '/v1/auth/pin/confirm', {
        form: { phone_nr: anna.phone, pin: TEST_PIN },
      })
    ).data;
    expect(user_id).toBe(await userId('Anna'));
    const me = await call<{ account: { nickname: string; phone_nr: string } }>(s.url, 'GET', '/v1/me', { token });
    expect(me.data.account).toMatchObject({ nickname: 'Anna', phone_nr: anna.phone });
    // Signing in reuses the seeded account rather than making a second one.
    expect(await count(sql`SELECT COUNT(*) AS n FROM users`)).toBe(DEMO_USERS.length + 1);

    const list = await call<ConversationsAnswer>(s.url, 'GET', '/v2/conversations', { token });
    const chats = list.data.conversations.map(({ conversation: c }) => [c.name, c.unread_message_count, c.is_demo]);
    // Newest first; the one-to-one chat is named after Erik.
    expect(chats).toEqual([
      ['Erik', 0, false],
      ['Bokklubben 📚', 2, false],
      ['Södermalm Runners', 0, false],
      ['Welcome to Messenger', 0, true],
    ]);
  });

  it('refuses a PIN for the demo bot, whose number is not a real mobile number', async () => {
    const refused = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: DEMO_BOT.phone } });
    expect(refused.status).toBe(400);
  });
});

describe('npm run seed', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  /** Runs the CLI as `npm run seed` does, as a child process. */
  const seed = (...args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn('npx', ['tsx', 'server/seed/cli.ts', ...args], { cwd: root, timeout: 60_000 });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
    });
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'messenger-seed-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('seeds a new data directory and generates a big group and many chats', async () => {
    const result = await seed('--data-dir', dir, '--group-messages', '2000', '--conversations', '50');
    expect(result.stderr).not.toMatch(/seed:/);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(DEMO_USERS[0].phone);
    expect(result.stdout).toContain('2000 messages');

    const { store: made, created } = await openStore({ dataDir: dir });
    try {
      expect(created).toBe(false);
      const q = async (query: Query<{ n: number }>) => (await made.get(query))!.n;
      const anna = (await made.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${DEMO_USERS[0].phone}`))!.id;
      const big = (await made.get<ConversationRow>(sql`SELECT * FROM conversations WHERE name = 'Big group'`))!;
      expect(await q(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${big.id}`)).toBe(2000);
      expect(await q(sql`SELECT MAX(id) AS n FROM messages WHERE conversation_id = ${big.id}`)).toBe(big.last_message_id);
      expect(await q(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${big.id}`)).toBe(5);
      expect(
        await q(sql`SELECT is_admin AS n FROM conversation_members WHERE conversation_id = ${big.id} AND user_id = ${anna}`),
      ).toBe(1);
      // 50 generated chats plus the demo chat with Erik.
      expect(
        await q(
          sql`SELECT COUNT(*) AS n FROM conversations c JOIN conversation_members m ON m.conversation_id = c.id
              WHERE m.user_id = ${anna} AND c.is_group = 0`,
        ),
      ).toBe(51);
      expect(await q(sql`SELECT COUNT(*) AS n FROM users WHERE phone_nr LIKE '+46769%'`)).toBe(50);
      expect(await q(sql`SELECT COUNT(*) AS n FROM conversations WHERE last_message_id IS NULL`)).toBe(0);
      expect(await q(sql`SELECT COUNT(*) AS n FROM conversations WHERE is_demo = 1`)).toBe(1);
    } finally {
      await made.close();
    }

    // A second run adds to the existing database without seeding the demo world again.
    const again = await seed('--data-dir', dir, '--conversations', '5', '--user', '+62 812 3456 701');
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('Budi');
    const { store: after } = await openStore({ dataDir: dir });
    try {
      const q = async (query: Query<{ n: number }>) => (await after.get(query))!.n;
      expect(await q(sql`SELECT COUNT(*) AS n FROM users WHERE phone_nr LIKE '+46769%'`)).toBe(55);
      expect(await q(sql`SELECT COUNT(*) AS n FROM conversations WHERE is_demo = 1`)).toBe(1);
    } finally {
      await after.close();
    }
  }, 90_000);

  it('prints usage for --help and refuses bad options with exit code 2', async () => {
    const [help, unknown] = await Promise.all([seed('--help'), seed('--data-dir', dir, '--frobnicate')]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--group-messages N');
    expect(help.stdout).toContain('--data-dir DIR');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--frobnicate'");
  }, 90_000);

  it('reads its options strictly', () => {
    expect(parseSeedArgs([], { DATA_DIR: '/srv/messenger' })).toEqual({
      help: false,
      options: { dataDir: '/srv/messenger', groupMessages: 0, conversations: 0, userPhone: undefined },
    });
    expect(parseSeedArgs(['--user', '0062 812-3456-701', '--group-messages', '100000'], {})).toMatchObject({
      options: { dataDir: path.resolve('data'), groupMessages: 100000, userPhone: '+628123456701' },
    });
    expect(() => parseSeedArgs(['--group-messages', '-5'], {})).toThrow(UsageError);
    expect(() => parseSeedArgs(['--conversations', 'many'], {})).toThrow('--conversations must be a whole number');
    expect(() => parseSeedArgs(['--user', '12345'], {})).toThrow('not a Swedish or Indonesian mobile number');
    expect(() => parseSeedArgs(['extra'], {})).toThrow(UsageError);
  }, 90_000);
});
