import { describe, expect, it, vi } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { ManualClock } from '../../server/clock';
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
    const community = insertCommunity(s.server.ctx.db, { name: 'Club', ownerId: alice.id, members: [bob.id] });
    const channel = insertConversation(s.server.ctx.db, {
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
  function usersWithPictures(n: number): number[] {
    const db = s.server.ctx.db;
    return Array.from({ length: n }, (_, i) => {
      const file = db
        .prepare(
          `INSERT INTO files (name, owner_id, purpose, mime, kind, size, original_name, created_at)
           VALUES (?, ?, 'avatar', 'image/png', 'image', 1, 'a.png', 0)`,
        )
        .run(newStid('f'), alice.id).lastInsertRowid;
      return Number(
        db
          .prepare('INSERT INTO users (stid, phone_nr, country_code, nickname, image_file_id, created_at) VALUES (?, ?, ?, ?, ?, 0)')
          .run(newStid('u'), nextPhone(), '46', `Member ${i}`, file).lastInsertRowid,
      );
    });
  }
  const groupOf = (size: number) =>
    insertConversation(s.server.ctx.db, { members: [alice.id, ...usersWithPictures(size - 1)], admins: [alice.id], name: 'Sized', isGroup: true }).id;
  /** How many statements `fn` prepares: every query of the server prepares its statement where it runs. */
  async function queries(fn: () => unknown): Promise<number> {
    const spy = vi.spyOn(s.server.ctx.db, 'prepare');
    try {
      await fn();
      return spy.mock.calls.length;
    } finally {
      spy.mockRestore();
    }
  }

  it('serializes a conversation with the same number of queries whatever its size', async () => {
    const counts = [];
    for (const size of [3, 40]) {
      const row = loadConversation(s.server.ctx.db, groupOf(size)) as ConversationRow;
      await rename(alice, row.id, 'Sized again');
      counts.push(await queries(() => serializeConversation(s.server.ctx.db, row, alice.id, 20)));
      const conversation = serializeConversation(s.server.ctx.db, row, alice.id, 20);
      expect(conversation.users).toHaveLength(size);
      const others = conversation.users.filter((u) => u.user.id !== alice.id);
      expect(others.every((u) => u.user.image.meta.url.startsWith('/files/'))).toBe(true);
      expect(conversation.users.filter((u) => u.is_admin).map((u) => u.user.id)).toEqual(conversation.admins);
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('tells each member of a group a change with a fixed number of queries per member', async () => {
    const cost = async (size: number) => {
      const id = groupOf(size);
      return queries(() => rename(alice, id, `Renamed ${size}`));
    };
    const [three, four, forty] = [await cost(3), await cost(4), await cost(40)];
    const perMember = four - three;
    expect(perMember).toBeLessThanOrEqual(5);
    expect(forty).toBe(three + 37 * perMember);
  });
});
