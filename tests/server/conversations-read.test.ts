import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { ManualClock } from '../../server/clock';
import { type Query, sql } from '../../server/db/store';
import { newStid } from '../../server/domain/ids';
import type { ConversationRow } from '../../server/domain/rows';
import { loadConversation, serializeConversation } from '../../server/domain/serialize';
import { insertCommunity, insertConversation } from '../support/fixtures';
import { call, nextPhone, signUp, type TestUser, useTestServer, useUsers } from '../support/server';
import { createGroup } from './conversations-support';

const clock = new ManualClock();
const s = useTestServer({}, { clock });
const [alice, bob, outsider] = useUsers(s, 'Alice', 'Bob', 'Outsider');

type List = { conversations: { conversation: Conversation }[] };
const list = (user: TestUser, headers: Record<string, string> = {}) =>
  call<List>(s.url, 'GET', '/v2/conversations', { token: user.token, headers });
const rename = (user: TestUser, id: number, name: string) =>
  call(s.url, 'PUT', `/v2/conversations/${id}`, { token: user.token, form: { name } }).then((r) => r.data);

describe('GET /v2/conversations', () => {
  it('lists the caller’s conversations, newest activity first', async () => {
    const user = await signUp(s.url, 'Lister');
    clock.advance(1000);
    const a = await createGroup(s.url, user, [bob], { name: 'First' });
    clock.advance(1000);
    const b = await createGroup(s.url, user, [bob], { name: 'Second' });
    clock.advance(1000);
    const c = await createGroup(s.url, user, [bob], { name: 'Third' });
    clock.advance(1000);
    // A system message (from a rename) is the latest activity of `a`.
    await rename(user, a.id, 'First again');
    const ids = (await list(user)).data.conversations.map((e) => e.conversation.id);
    expect(ids).toEqual([a.id, c.id, b.id]);
    const first = (await list(user)).data.conversations[0]?.conversation;
    expect(first?.last_message?.attachment).toMatchObject({ type: 'event', event_type: 'conversation_renamed' });
    expect(first?.messages).toHaveLength(1);
  });

  it('carries Message-Count latest messages, 1 by default, and refuses bad values', async () => {
    const user = await signUp(s.url, 'Counter');
    const g = await createGroup(s.url, user, [bob], { name: 'Busy' });
    for (let i = 0; i < 4; i++) await rename(user, g.id, `Busy ${i}`);
    const entry = async (headers: Record<string, string>) =>
      (await list(user, headers)).data.conversations.find((e) => e.conversation.id === g.id)?.conversation;
    expect((await entry({}))?.messages).toHaveLength(1);
    expect((await entry({ 'Message-Count': '0' }))?.messages).toEqual([]);
    const three = await entry({ 'Message-Count': '3' });
    expect(three?.messages.map((m) => m.attachment?.event?.name)).toEqual(['Busy 1', 'Busy 2', 'Busy 3']);
    for (const bad of ['51', '-1', 'abc', '1.5']) {
      const res = await list(user, { 'Message-Count': bad });
      expect(res.body).toEqual({ success: false, status: 400, message: 'Message-Count must be a whole number from 0 to 50' });
    }
  });

  it('shows nothing of conversations the caller is not in', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Private' });
    const ids = (await list(outsider)).data.conversations.map((e) => e.conversation.id);
    expect(ids).not.toContain(g.id);
  });

  it('answers 401 without a token', async () => {
    expect((await call(s.url, 'GET', '/v2/conversations')).status).toBe(401);
  });
});

describe('GET /v2/conversations/{id}', () => {
  it('answers a conversation by id or stid with 20 latest messages by default', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Long' });
    for (let i = 0; i < 22; i++) await rename(alice, g.id, `Long ${i}`);
    const byId = await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${g.id}`, { token: bob.token });
    expect(byId.data.conversation).toMatchObject({ id: g.id, name: 'Long 21', member_count: 2 });
    expect(byId.data.conversation.messages).toHaveLength(20);
    expect(byId.data.conversation.messages.at(-1)?.attachment?.event?.name).toBe('Long 21');
    const byStid = await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${g.stid}`, {
      token: bob.token,
      headers: { 'Message-Count': '100' },
    });
    expect(byStid.data.conversation.messages).toHaveLength(22);
    const tooMany = await call(s.url, 'GET', `/v2/conversations/${g.id}`, { token: bob.token, headers: { 'Message-Count': '101' } });
    expect(tooMany.body).toMatchObject({ status: 400, message: 'Message-Count must be a whole number from 0 to 100' });
  });

  it('gives a non-member the same 404 as an unknown id, with no data', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Secret' });
    const hidden = await call(s.url, 'GET', `/v2/conversations/${g.id}`, { token: outsider.token });
    const unknown = await call(s.url, 'GET', '/v2/conversations/999999', { token: outsider.token });
    expect(hidden.body).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    expect(unknown.body).toEqual(hidden.body);
    const byStid = await call(s.url, 'GET', `/v2/conversations/${g.stid}`, { token: outsider.token });
    expect(byStid.body).toEqual(hidden.body);
  });

  it('refuses an id that is neither a number nor a stid', async () => {
    const res = await call(s.url, 'GET', '/v2/conversations/not%20an%20id', { token: alice.token });
    expect(res.body).toEqual({ success: false, status: 400, message: 'Invalid conversation ID provided' });
  });

  it('answers a community channel to its members', async () => {
    const community = await insertCommunity(s.server.ctx.db, { name: 'Club', ownerId: alice.id, members: [bob.id] });
    const channel = await insertConversation(s.server.ctx.db, {
      members: [alice.id, bob.id],
      admins: [alice.id],
      name: 'Lobby',
      isGroup: true,
      groupType: 'channel',
      communityId: community.id,
    });
    const res = await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${channel.id}`, { token: bob.token });
    expect(res.data.conversation).toMatchObject({ group_type: 'channel', community_id: community.id });
  });

  it('answers 401 without a token', async () => {
    expect((await call(s.url, 'GET', '/v2/conversations/1')).status).toBe(401);
  });
});

describe('cost', () => {
  /** `n` users with a picture each, straight into the database. */
  async function usersWithPictures(n: number): Promise<number[]> {
    const db = s.server.ctx.db;
    const ids: number[] = [];
    for (let i = 0; i < n; i++) {
      const file = (await db.get<{ id: number }>(
        sql`INSERT INTO files (name, owner_id, purpose, mime, kind, size, original_name, created_at)
            VALUES (${newStid('f')}, ${alice.id}, 'avatar', 'image/png', 'image', 1, 'a.png', 0) RETURNING id`,
      ))!.id;
      const user = await db.get<{ id: number }>(
        sql`INSERT INTO users (stid, phone_nr, country_code, nickname, image_file_id, created_at)
            VALUES (${newStid('u')}, ${nextPhone()}, '46', ${`Member ${i}`}, ${file}, 0) RETURNING id`,
      );
      ids.push(user!.id);
    }
    return ids;
  }
  const groupOf = async (size: number) =>
    (
      await insertConversation(s.server.ctx.db, {
        members: [alice.id, ...(await usersWithPictures(size - 1))],
        admins: [alice.id],
        name: 'Sized',
        isGroup: true,
      })
    ).id;
  /**
   * How many statements `fn` runs (every query of the server goes through the store's get, all or run):
   * `total`, and `domain`, those outside the event log's emit. The log stores a fixed few rows per receiver;
   * before the store its statements were prepared once, so the per-member bound below never counted them.
   */
  async function queries(fn: () => unknown): Promise<{ total: number; domain: number }> {
    const { db, events } = s.server.ctx;
    const inEmit = new AsyncLocalStorage<true>();
    const counts = { total: 0, domain: 0 };
    const spies = (['get', 'all', 'run'] as const).map((name) => {
      const original = db[name].bind(db) as (query: Query) => Promise<unknown>;
      return vi.spyOn(db, name).mockImplementation(((query: Query) => {
        counts.total += 1;
        if (!inEmit.getStore()) counts.domain += 1;
        return original(query);
      }) as never);
    });
    const emit = events.emit.bind(events);
    const emitSpy = vi
      .spyOn(events, 'emit')
      .mockImplementation(((...args: Parameters<typeof emit>) => inEmit.run(true, () => emit(...args))) as typeof emit);
    try {
      await fn();
      return counts;
    } finally {
      for (const spy of [...spies, emitSpy]) spy.mockRestore();
    }
  }

  it('serializes a conversation with the same number of queries whatever its size', async () => {
    const counts = [];
    for (const size of [3, 40]) {
      const row = (await loadConversation(s.server.ctx.db, await groupOf(size))) as ConversationRow;
      await rename(alice, row.id, 'Sized again');
      counts.push((await queries(() => serializeConversation(s.server.ctx.db, row, alice.id, 20))).total);
      const conversation = await serializeConversation(s.server.ctx.db, row, alice.id, 20);
      expect(conversation.users).toHaveLength(size);
      const others = conversation.users.filter((u) => u.user.id !== alice.id);
      expect(others.every((u) => u.user.image.meta.url.startsWith('/files/'))).toBe(true);
      expect(conversation.users.filter((u) => u.is_admin).map((u) => u.user.id)).toEqual(conversation.admins);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('tells each member of a group a change with a fixed number of queries per member', async () => {
    const cost = async (size: number) => {
      const id = await groupOf(size);
      return queries(() => rename(alice, id, `Renamed ${size}`));
    };
    const [three, four, forty] = [await cost(3), await cost(4), await cost(40)];
    const perMember = four.domain - three.domain;
    expect(perMember).toBeLessThanOrEqual(5);
    expect(forty.domain).toBe(three.domain + 37 * perMember);
    // The event log's statements too: a fixed number per member.
    const perMemberInAll = four.total - three.total;
    expect(forty.total).toBe(three.total + 37 * perMemberInAll);
  });
});
