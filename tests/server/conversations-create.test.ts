import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { call, nextPhone, signUp, TEST_PIN, TestSocket, type TestUser, useTestServer, useUsers } from '../support/server';
import { createGroup, expectNothingAbout, type Form, memberForm, memberIdsOf, waitFor } from './conversations-support';

const s = useTestServer();
const [alice, bob, carol] = useUsers(s, 'Alice', 'Bob', 'Carol');

type Created = { conversation: Conversation; created: boolean };
const create = (user: TestUser, form: Form) => call<Created>(s.url, 'POST', '/v2/conversations', { token: user.token, form });
const count = async (table: 'conversations' | 'users' | 'conversation_members' | 'events') =>
  (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ${sql.table(table)}`))!.n;
const stidOf = async (user: TestUser) =>
  (await s.server.ctx.db.get<{ stid: string }>(sql`SELECT stid FROM users WHERE id = ${user.id}`))!.stid;

describe('one-to-one chats', () => {
  it('creates a one-to-one chat named after the other person, and reuses it from either side', async () => {
    const dave = await signUp(s.url, 'Dave');
    const first = await create(alice, { 'member[0][name]': 'My Dave', 'member[0][value]': dave.phone, name: 'ignored' });
    expect(first.status).toBe(200);
    const chat = first.data.conversation;
    expect(first.data.created).toBe(true);
    expect(chat).toMatchObject({ is_group: false, name: 'Dave', member_count: 2, group_type: 'normal' });
    expect(chat.settings.reply_to).toBe('0');
    expect(chat.users.every((u) => !u.is_admin)).toBe(true);
    expect(memberIdsOf(chat)).toEqual([alice.id, dave.id].sort((a, b) => a - b));

    const again = await create(alice, { 'member[0][value]': dave.phone });
    expect(again.data).toMatchObject({ created: false, conversation: { id: chat.id } });
    const fromDave = await create(dave, { 'member[0][type]': 'stid', 'member[0][value]': await stidOf(alice) });
    expect(fromDave.data.created).toBe(false);
    expect(fromDave.data.conversation).toMatchObject({ id: chat.id, name: 'Alice' });
    expect((await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM conversation_members WHERE conversation_id = ${chat.id}`))!.n).toBe(2);
  });

  it('makes a group of one member when force_group or broadcast is set', async () => {
    const forced = await create(alice, { name: 'Just us', force_group: 1, ...memberForm([carol]) });
    expect(forced.data.conversation).toMatchObject({ is_group: true, name: 'Just us', member_count: 2 });
    const missingName = await create(alice, { force_group: 1, ...memberForm([carol]) });
    expect(missingName.body).toEqual({ success: false, status: 400, message: 'Name cannot be empty' });
  });

  it('reads a national number in the caller’s country', async () => {
    const national = `0${nextPhone().slice(3)}`;
    const res = await create(alice, { 'member[0][value]': national });
    const other = res.data.conversation.users.find((u) => u.user.id !== alice.id);
    expect(other?.user.phone_nr).toBe(`+46${national.slice(1)}`);
  });
});

describe('groups', () => {
  it('creates a group with the caller as admin and owner and the named admins', async () => {
    const res = await create(alice, {
      name: '  Hikers  ',
      description: 'Weekend trips',
      ...memberForm([bob, carol]),
      'member[1][is_admin]': 1,
    });
    const group = res.data.conversation;
    expect(group).toMatchObject({ is_group: true, name: 'Hikers', description: 'Weekend trips', member_count: 3 });
    expect(group.member).toMatchObject({ is_owner: true, is_admin: true });
    expect(group.admins.sort()).toEqual([alice.id, carol.id].sort());
    expect(group.settings).toEqual({ reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' });
    expect(group.messages).toEqual([]);
    const asBob = (await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${group.stid}`, { token: bob.token })).data.conversation;
    expect(asBob.member).toMatchObject({ is_owner: false, is_admin: false });
  });

  it('accepts the same fields as JSON', async () => {
    const res = await call<Created>(s.url, 'POST', '/v2/conversations', {
      token: alice.token,
      json: { name: 'Json group', member: [{ value: bob.phone }, { type: 'stid', value: await stidOf(carol), is_admin: true }] },
    });
    expect(res.data.conversation.admins.sort()).toEqual([alice.id, carol.id].sort());
  });

  it('gives broadcast groups the fixed settings of spec §9', async () => {
    const broadcast = await create(alice, { name: 'News', broadcast: 1, 'settings[show_numbers_to_all]': 0, ...memberForm([bob]) });
    expect(broadcast.data.conversation.is_group).toBe(true);
    expect(broadcast.data.conversation.settings).toEqual({
      reply_to: '1',
      show_numbers_to_all: '1',
      user_notifications_to_all: '1',
      all_invite: '1',
    });
    const adminInvites = await create(alice, { name: 'News 2', broadcast: 1, 'settings[all_invite]': 0, ...memberForm([bob]) });
    expect(adminInvites.data.conversation.settings).toMatchObject({ reply_to: '1', all_invite: '0' });
    const byReplyTo = await create(alice, { name: 'News 3', 'settings[reply_to]': 1, ...memberForm([bob]) });
    expect(byReplyTo.data.conversation.settings).toMatchObject({ reply_to: '1', show_numbers_to_all: '1' });
  });

  it('creates a user for a number that has not signed up, who finds the chat on first sign-in', async () => {
    const phone = nextPhone();
    const usersBefore = await count('users');
    const group = await createGroup(s.url, alice, [bob, phone]);
    expect(await count('users')).toBe(usersBefore + 1);
    const newcomer = group.users.find((u) => u.user.phone_nr === phone);
    expect(newcomer?.user.nickname).toBe('');

    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
    const { token, user_id } = (
      await call<{ token: string; user_id: number }>(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } })
    ).data;
    expect(user_id).toBe(newcomer?.user.id);
    const list = (await call<{ conversations: { conversation: Conversation }[] }>(s.url, 'GET', '/v2/conversations', { token })).data;
    expect(list.conversations.map((c) => c.conversation.id)).toContain(group.id);
  });

  it('names a one-to-one chat with a number that has no account by the name typed, on the creator’s side (issue 23)', async () => {
    const phone = nextPhone();
    const national = `0${phone.slice(3)}`;
    const chat = (await create(alice, { 'member[0][name]': ' Okänd ', 'member[0][value]': national })).data.conversation;
    expect(chat.name).toBe('Okänd');
    const list = async (user: { token: string }) =>
      (await call<{ conversations: { conversation: Conversation }[] }>(s.url, 'GET', '/v2/conversations', { token: user.token })).data.conversations;
    expect((await list(alice)).find((c) => c.conversation.id === chat.id)?.conversation.name).toBe('Okänd');
    expect((await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${chat.id}`, { token: alice.token })).data.conversation.name).toBe('Okänd');

    // Once they sign up, their own nickname names the chat; they see Alice by hers.
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
    const { token } = (
      await call<{ token: string }>(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } })
    ).data;
    await call(s.url, 'POST', '/v2/me/register', { token, json: { name: 'Olle' } }).then((r) => r.data);
    expect((await list(alice)).find((c) => c.conversation.id === chat.id)?.conversation.name).toBe('Olle');
    expect((await list({ token })).find((c) => c.conversation.id === chat.id)?.conversation.name).toBe('Alice');
  });

  it('accepts 256 members and refuses 257', async () => {
    const phones = Array.from({ length: 257 }, () => nextPhone());
    const before = await count('conversations');
    const tooMany = await create(alice, { name: 'Crowd', ...memberForm(phones) });
    expect(tooMany.body).toMatchObject({ status: 400, message: 'At most 256 members can be added at a time' });
    expect(await count('conversations')).toBe(before);
    const crowd = await create(alice, { name: 'Crowd', ...memberForm(phones.slice(0, 256)) });
    expect(crowd.data.conversation.member_count).toBe(257);
  });
});

describe('bad input', () => {
  const cases: [string, Form, string | RegExp][] = [
    ['no members', { name: 'Empty' }, 'Add at least one member other than yourself'],
    ['only empty member rows', { name: 'Empty', 'member[0][name]': '', 'member[0][value]': '' }, 'Add at least one member other than yourself'],
    ['an empty group name', { name: '   ', 'member[1][value]': '+46701110001', force_group: 1 }, 'Name cannot be empty'],
    ['a one-character name', { name: 'A', force_group: 1, 'member[0][value]': '+46701110001' }, 'Name must be at least 2 characters'],
    ['a 51-character name', { name: 'x'.repeat(51), force_group: 1, 'member[0][value]': '+46701110001' }, 'Name must be at most 50 characters'],
    ['a 501-character description', { name: 'Ok', description: 'd'.repeat(501), force_group: 1, 'member[0][value]': '+46701110001' }, 'Description must be at most 500 characters'],
    ['a 51-character member name', { 'member[0][name]': 'n'.repeat(51), 'member[0][value]': '+46701110001' }, /Member name must be at most 50 characters/],
    ['a name without a phone', { 'member[0][name]': 'Somebody' }, /Phone number is required/],
    ['a bad phone number', { 'member[0][value]': '+4612' }, /Invalid phone number \(member 1\)/],
    ['an unknown stid', { 'member[0][type]': 'stid', 'member[0][value]': 'u_doesnotexist' }, /Unknown user/],
    ['an unknown member type', { 'member[0][type]': 'email', 'member[0][value]': 'a@b.c' }, /member/],
    ['a member that is not a row', { member: 'everybody' }, /member/],
    ['a flag that is not a flag', { broadcast: 'yes', 'member[0][value]': '+46701110001' }, /broadcast/],
    ['only the caller', { 'member[0][value]': '' }, 'Add at least one member other than yourself'],
  ];
  for (const [what, form, message] of cases) {
    it(`refuses ${what} and writes nothing`, async () => {
      const before = [await count('conversations'), await count('users'), await count('conversation_members'), await count('events')];
      const res = await create(alice, form);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      if (!res.body.success) expect(res.body.message).toMatch(message);
      expect([await count('conversations'), await count('users'), await count('conversation_members'), await count('events')]).toEqual(before);
    });
  }

  it('refuses a group with only the caller as member', async () => {
    const res = await create(alice, { name: 'Me', ...memberForm([alice]) });
    expect(res.body).toMatchObject({ status: 400, message: 'Add at least one member other than yourself' });
  });

  it('creates nothing when one member of many is bad, not even the users of the good numbers', async () => {
    const before = [await count('conversations'), await count('users')];
    const res = await create(alice, { name: 'Half', ...memberForm([nextPhone(), nextPhone(), 'not a phone']) });
    expect(res.body).toMatchObject({ status: 400, message: 'Invalid phone number (member 3)' });
    expect([await count('conversations'), await count('users')]).toEqual(before);
  });

  it('answers a malformed JSON body and a wrong JSON type with 400', async () => {
    const malformed = await call(s.url, 'POST', '/v2/conversations', {
      token: alice.token,
      body: '{"name": "x", "member": [',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.body).toMatchObject({ success: false, status: 400 });
    const wrong = await call(s.url, 'POST', '/v2/conversations', { token: alice.token, json: { name: 'Ok', member: [{ value: 12 }, 5] } });
    expect(wrong.status).toBe(400);
    const notObject = await call(s.url, 'POST', '/v2/conversations', { token: alice.token, json: ['x'] });
    expect(notObject.status).toBe(400);
  });

  it('answers 401 without a token', async () => {
    const res = await call(s.url, 'POST', '/v2/conversations', { form: memberForm([bob]) });
    expect(res.status).toBe(401);
  });
});

describe('websocket', () => {
  it('tells every member with conversation_add_user, each with their own view, and not an outsider', async () => {
    const outsider = await signUp(s.url, 'Outsider');
    const bobSock = new TestSocket(s.url, bob.token);
    const aliceSock = new TestSocket(s.url, alice.token);
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([bobSock.loaded(), aliceSock.loaded(), outSock.loaded()]);
    try {
      const group = await createGroup(s.url, alice, [bob, carol]);
      const toBob = await waitFor(bobSock, 'conversation_add_user', group.id);
      const toAlice = await waitFor(aliceSock, 'conversation_add_user', group.id);
      expect(toBob.data.user_ids.sort()).toEqual([alice.id, bob.id, carol.id].sort());
      expect(toBob.data.conversation).toMatchObject({ id: group.id, name: 'Test group', member_count: 3 });
      expect(toBob.data.conversation.member.is_admin).toBe(false);
      expect(toAlice.data.conversation.member.is_admin).toBe(true);
      await expectNothingAbout(s.url, outsider, outSock, group.id);
    } finally {
      bobSock.close();
      aliceSock.close();
      outSock.close();
    }
  });

  it('emits nothing when an existing one-to-one chat is returned', async () => {
    const erin = await signUp(s.url, 'Erin');
    const first = await create(alice, { 'member[0][value]': erin.phone });
    const sock = new TestSocket(s.url, erin.token);
    await sock.loaded();
    try {
      const eventsBefore = await count('events');
      const again = await create(alice, { 'member[0][value]': erin.phone });
      expect(again.data.conversation.id).toBe(first.data.conversation.id);
      expect(await count('events')).toBe(eventsBefore);
    } finally {
      sock.close();
    }
  });
});
