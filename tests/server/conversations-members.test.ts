import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { insertCommunity, insertConversation } from '../support/fixtures';
import { call, nextPhone, signUp, TestSocket, type TestUser, useTestServer, useUsers } from '../support/server';
import {
  createGroup,
  expectNothingAbout,
  type Form,
  framesAbout,
  getConversation,
  memberForm,
  memberIdsOf,
  waitFor,
} from './conversations-support';

const s = useTestServer();
const [alice, bob, carol, outsider] = useUsers(s, 'Alice', 'Bob', 'Carol', 'Outsider');

type Added = { conversation: Conversation; added_user_ids: number[] };
type Removed = { conversation_id: number; user_id: number; conversation: Conversation | null };
const add = (user: TestUser, id: number, form: Form) =>
  call<Added>(s.url, 'POST', `/v2/conversations/${id}/users`, { token: user.token, form });
const remove = (user: TestUser, id: number, target: number | string) =>
  call<Removed>(s.url, 'DELETE', `/v1/conversations/${id}/users/${target}`, { token: user.token });
const setAdmin = (user: TestUser, id: number, target: number | string, form: Form) =>
  call<{ conversation: Conversation }>(s.url, 'PUT', `/v1/conversations/${id}/users/${target}`, { token: user.token, form });
const deleteGroup = (user: TestUser, id: number) => call(s.url, 'DELETE', `/v1/conversations/${id}`, { token: user.token });

const db = () => s.server.ctx.db;
const members = async (id: number) =>
  (await db().all<{ user_id: number }>(sql`SELECT user_id FROM conversation_members WHERE conversation_id = ${id} ORDER BY user_id`)).map(
    (r) => r.user_id,
  );
const adminFlag = async (id: number, userId: number) =>
  (await db().get<{ is_admin: number }>(sql`SELECT is_admin FROM conversation_members WHERE conversation_id = ${id} AND user_id = ${userId}`))
    ?.is_admin;
const eventMessages = async (id: number) =>
  (await db().all<{ attachment: string }>(sql`SELECT attachment FROM messages WHERE conversation_id = ${id} AND type = 'system' ORDER BY id`)).map(
    (r) => JSON.parse(r.attachment) as { event_type: string; event: { user_id: number; user_ids?: number[] } },
  );
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

async function oneToOne(a: TestUser, b: TestUser) {
  return (await call<{ conversation: Conversation }>(s.url, 'POST', '/v2/conversations', { token: a.token, form: { 'member[0][value]': b.phone } }))
    .data.conversation;
}
async function channel() {
  const community = await insertCommunity(db(), { name: 'Club', ownerId: alice.id, members: [bob.id] });
  return insertConversation(db(), {
    members: [alice.id, bob.id],
    admins: [alice.id],
    name: 'Lobby',
    isGroup: true,
    groupType: 'channel',
    communityId: community.id,
  });
}

describe('POST /v2/conversations/{id}/users', () => {
  it('lets any member add people, skipping those already in, with one user_added message per call', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    const newcomer = nextPhone();
    const res = await add(bob, g.id, memberForm([carol, alice, newcomer]));
    expect(res.status).toBe(200);
    // Bob is no admin, so the group does not show him numbers: find the newcomer's account in the database.
    const newcomerId = (await s.server.ctx.db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${newcomer}`))!.id;
    expect(res.data.conversation.users.find((u) => u.user.id === newcomerId)?.user.phone_nr).toBe('');
    expect(sorted(res.data.added_user_ids)).toEqual(sorted([carol.id, newcomerId]));
    expect(res.data.conversation.member_count).toBe(4);
    expect(await eventMessages(g.id)).toEqual([
      {
        type: 'event',
        event_type: 'user_added',
        event: { user_id: res.data.added_user_ids[0], user_ids: res.data.added_user_ids, name: 'Carol' },
      },
    ]);
    const again = await add(bob, g.id, memberForm([carol]));
    expect(again.data.added_user_ids).toEqual([]);
    expect(await eventMessages(g.id)).toHaveLength(1);
  });

  it('tells old and new members with conversation_add_user, and not an outsider', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    const dave = await signUp(s.url, 'Dave');
    const socks = [alice, dave].map((u) => new TestSocket(s.url, u.token));
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([...socks, outSock].map((x) => x.loaded()));
    try {
      await add(bob, g.id, memberForm([dave])).then((r) => r.data);
      for (const sock of socks) {
        const frame = await waitFor(sock, 'conversation_add_user', g.id);
        expect(frame.data.user_ids).toEqual([dave.id]);
        expect(frame.data.conversation.member_count).toBe(3);
      }
      const toDave = await waitFor(socks[1] as TestSocket, 'conversation_message', g.id);
      expect(toDave.data.message.attachment).toMatchObject({ event_type: 'user_added', event: { user_id: dave.id, name: 'Dave' } });
      await expectNothingAbout(s.url, outsider, outSock, g.id);
    } finally {
      [...socks, outSock].forEach((x) => x.close());
    }
  });

  it('refuses one-to-one chats, community channels, admin-only invites and admin grants by members', async () => {
    const chat = await oneToOne(alice, bob);
    expect((await add(alice, chat.id, memberForm([carol]))).body).toEqual({
      success: false,
      status: 403,
      message: 'Members cannot be added to a one-to-one chat',
    });
    expect((await add(alice, (await channel()).id, memberForm([carol]))).status).toBe(403);
    const closed = await createGroup(s.url, alice, [bob], { 'settings[all_invite]': 0 });
    expect((await add(bob, closed.id, memberForm([carol]))).body).toMatchObject({
      status: 403,
      message: 'Only admins can add members to this group',
    });
    expect((await add(alice, closed.id, memberForm([carol]))).data.added_user_ids).toEqual([carol.id]);
    const open = await createGroup(s.url, alice, [bob]);
    const grant = await add(bob, open.id, { ...memberForm([carol]), 'member[0][is_admin]': 1 });
    expect(grant.body).toMatchObject({ status: 403, message: 'Only admins can make other members admins' });
    expect(await members(chat.id)).toHaveLength(2);
    expect(await members(open.id)).toEqual(sorted([alice.id, bob.id]));
  });

  it('gives a non-member 404 and bad input 400, adding nobody', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    const usersBefore = (await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM users`))!.n;
    expect((await add(outsider, g.id, memberForm([carol]))).body).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    const cases: Form[] = [
      {},
      memberForm([nextPhone(), 'nonsense']),
      { 'member[0][type]': 'stid', 'member[0][value]': 'u_unknownuser' },
      { 'member[0][name]': 'n'.repeat(51), 'member[0][value]': carol.phone },
      { member: 'carol' },
    ];
    for (const form of cases) {
      const res = await add(alice, g.id, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
    }
    const malformed = await call(s.url, 'POST', `/v2/conversations/${g.id}/users`, {
      token: alice.token,
      body: '{"member": [',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await members(g.id)).toEqual(sorted([alice.id, bob.id]));
    expect((await db().get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM users`))!.n).toBe(usersBefore);
  });
});

describe('DELETE /v1/conversations/{id}/users/{userId}', () => {
  it('lets an admin remove a member, who then cannot see the chat', async () => {
    const g = await createGroup(s.url, alice, [bob, carol]);
    const res = await remove(alice, g.id, bob.id);
    expect(res.data).toMatchObject({ conversation_id: g.id, user_id: bob.id });
    expect(memberIdsOf(res.data.conversation as Conversation)).toEqual(sorted([alice.id, carol.id]));
    expect((await eventMessages(g.id)).at(-1)).toMatchObject({ event_type: 'user_removed', event: { user_id: bob.id } });
    expect((await call(s.url, 'GET', `/v2/conversations/${g.id}`, { token: bob.token })).status).toBe(404);
  });

  it('sends conversation_removed_user to the members and the removed user, not to an outsider', async () => {
    const g = await createGroup(s.url, alice, [bob, carol]);
    const socks = [bob, carol].map((u) => new TestSocket(s.url, u.token));
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([...socks, outSock].map((x) => x.loaded()));
    try {
      await remove(alice, g.id, bob.id).then((r) => r.data);
      for (const sock of socks) {
        expect((await waitFor(sock, 'conversation_removed_user', g.id)).data).toEqual({ conversation_id: g.id, user_id: bob.id });
      }
      const toCarol = await waitFor(socks[1] as TestSocket, 'conversation_message', g.id);
      expect(toCarol.data.message.attachment?.event_type).toBe('user_removed');
      await expectNothingAbout(s.url, outsider, outSock, g.id);
    } finally {
      [...socks, outSock].forEach((x) => x.close());
    }
  });

  it('refuses non-admins, one-to-one chats and community channels', async () => {
    const g = await createGroup(s.url, alice, [bob, carol]);
    expect((await remove(bob, g.id, carol.id)).body).toEqual({ success: false, status: 403, message: 'Only admins can remove members' });
    const chat = await oneToOne(alice, carol);
    expect((await remove(alice, chat.id, carol.id)).status).toBe(403);
    expect((await remove(alice, chat.id, alice.id)).body).toMatchObject({ status: 403, message: 'You cannot leave a one-to-one chat' });
    expect((await remove(alice, (await channel()).id, bob.id)).status).toBe(403);
    expect(await members(g.id)).toHaveLength(3);
  });

  it('lets a member leave; the only admin must promote someone first', async () => {
    const g = await createGroup(s.url, alice, [bob, carol]);
    const bobLeaves = await remove(bob, g.id, bob.id);
    expect(bobLeaves.data).toEqual({ conversation_id: g.id, user_id: bob.id, conversation: null });
    expect((await eventMessages(g.id)).at(-1)).toMatchObject({ event_type: 'user_removed', event: { user_id: bob.id } });

    const refused = await remove(alice, g.id, alice.id);
    expect(refused.status).toBe(403);
    if (!refused.body.success) expect(refused.body.message).toMatch(/only admin.*Make another member an admin/);
    expect(await members(g.id)).toContain(alice.id);

    await setAdmin(alice, g.id, carol.id, { is_admin: 1 }).then((r) => r.data);
    expect((await remove(alice, g.id, alice.id)).status).toBe(200);
    expect(await members(g.id)).toEqual([carol.id]);
  });

  it('deletes a group its last member leaves', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    await remove(alice, g.id, bob.id).then((r) => r.data);
    expect((await remove(alice, g.id, alice.id)).status).toBe(200);
    expect(await db().get(sql`SELECT id FROM conversations WHERE id = ${g.id}`)).toBeUndefined();
  });

  it('gives a non-member 404, an unknown target 404 and a bad target 400', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    expect((await remove(outsider, g.id, bob.id)).body).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    expect((await remove(outsider, g.id, outsider.id)).status).toBe(404);
    expect((await remove(alice, g.id, carol.id)).body).toMatchObject({ status: 404, message: 'This user is not a member of the conversation' });
    expect((await remove(alice, g.id, 'u_nobodyhere')).status).toBe(404);
    expect((await remove(alice, g.id, 'bad!id')).body).toMatchObject({ status: 400, message: 'Invalid user ID provided' });
    expect(await members(g.id)).toEqual(sorted([alice.id, bob.id]));
  });
});

describe('PUT /v1/conversations/{id}/users/{userId}', () => {
  it('promotes and demotes, telling members with conversation_edit and not an outsider', async () => {
    const g = await createGroup(s.url, alice, [bob, carol]);
    const bobSock = new TestSocket(s.url, bob.token);
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([bobSock.loaded(), outSock.loaded()]);
    try {
      const promoted = await setAdmin(alice, g.id, bob.id, { is_admin: 1 });
      expect(promoted.data.conversation.admins).toEqual(sorted([alice.id, bob.id]));
      const edit = await waitFor(bobSock, 'conversation_edit', g.id);
      expect(edit.data.conversation.member.is_admin).toBe(true);
      // Unchanged: no event.
      await setAdmin(alice, g.id, bob.id, { is_admin: 1 }).then((r) => r.data);
      const demoted = await setAdmin(bob, g.id, alice.id, { is_admin: 0 });
      expect(demoted.data.conversation.admins).toEqual([bob.id]);
      await expectNothingAbout(s.url, outsider, outSock, g.id);
      expect(framesAbout(bobSock, 'conversation_edit', g.id)).toHaveLength(2);
    } finally {
      bobSock.close();
      outSock.close();
    }
  });

  it('refuses demoting the last admin, non-admins, one-to-one chats and channels', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    expect((await setAdmin(alice, g.id, alice.id, { is_admin: 0 })).body).toMatchObject({
      status: 403,
      message: 'A group needs at least one admin. Make another member an admin first.',
    });
    expect((await setAdmin(bob, g.id, bob.id, { is_admin: 1 })).body).toMatchObject({
      status: 403,
      message: 'Only admins can promote or demote members',
    });
    const chat = await oneToOne(alice, bob);
    expect((await setAdmin(alice, chat.id, bob.id, { is_admin: 1 })).status).toBe(403);
    expect((await setAdmin(alice, (await channel()).id, bob.id, { is_admin: 1 })).status).toBe(403);
    expect(await adminFlag(g.id, alice.id)).toBe(1);
    expect(await adminFlag(g.id, bob.id)).toBe(0);
  });

  it('gives a non-member 404 and refuses bad input', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    expect((await setAdmin(outsider, g.id, outsider.id, { is_admin: 1 })).status).toBe(404);
    expect((await setAdmin(alice, g.id, carol.id, { is_admin: 1 })).status).toBe(404);
    for (const form of [{}, { is_admin: 'maybe' }, { is_admin: '' }, { is_admin: 2 }] as Form[]) {
      expect((await setAdmin(alice, g.id, bob.id, form)).status, JSON.stringify(form)).toBe(400);
    }
    expect(await adminFlag(g.id, bob.id)).toBe(0);
    expect((await call(s.url, 'PUT', `/v1/conversations/${g.id}/users/${bob.id}`, { form: { is_admin: 1 } })).status).toBe(401);
  });
});

describe('DELETE /v1/conversations/{id}', () => {
  it('deletes a group with its messages, telling every member but not an outsider', async () => {
    const g = await createGroup(s.url, alice, [bob, carol]);
    await add(alice, g.id, memberForm([nextPhone()])).then((r) => r.data);
    const socks = [bob, carol].map((u) => new TestSocket(s.url, u.token));
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([...socks, outSock].map((x) => x.loaded()));
    try {
      // Makes the outsider's sentinel group before the delete, so it cannot be given the freed id.
      await expectNothingAbout(s.url, outsider, outSock, g.id);
      const res = await deleteGroup(alice, g.id);
      expect(res.body).toEqual({ success: true, data: { conversation_id: g.id } });
      for (const sock of socks) expect((await waitFor(sock, 'deleted_conversation', g.id)).data).toEqual({ conversation_id: g.id });
      await expectNothingAbout(s.url, outsider, outSock, g.id);
    } finally {
      [...socks, outSock].forEach((x) => x.close());
    }
    expect(await members(g.id)).toEqual([]);
    expect(await eventMessages(g.id)).toEqual([]);
    expect((await call(s.url, 'GET', `/v2/conversations/${g.id}`, { token: alice.token })).status).toBe(404);
  });

  it('refuses non-admins, one-to-one chats, channels and non-members', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    expect((await deleteGroup(bob, g.id)).body).toEqual({ success: false, status: 403, message: 'Only admins can delete the group' });
    expect((await deleteGroup(outsider, g.id)).body).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    const chat = await oneToOne(alice, bob);
    expect((await deleteGroup(alice, chat.id)).status).toBe(403);
    expect((await deleteGroup(alice, (await channel()).id)).status).toBe(403);
    expect((await call(s.url, 'DELETE', `/v1/conversations/${g.id}`)).status).toBe(401);
    expect(await members(g.id)).toHaveLength(2);
    expect(await members(chat.id)).toHaveLength(2);
  });
});

describe('every route', () => {
  it('answers 401 without a token', async () => {
    const routes: [string, string][] = [
      ['GET', '/v2/conversations'],
      ['GET', '/v2/conversations/1'],
      ['POST', '/v2/conversations'],
      ['PUT', '/v2/conversations/1'],
      ['PUT', '/v2/conversations/1/mute'],
      ['POST', '/v2/conversations/1/delivery_settings'],
      ['POST', '/v2/conversations/1/users'],
      ['DELETE', '/v1/conversations/1/users/1'],
      ['PUT', '/v1/conversations/1/users/1'],
      ['DELETE', '/v1/conversations/1'],
    ];
    for (const [method, path] of routes) {
      const res = await call(s.url, method, path, method === 'GET' ? {} : { form: {} });
      expect(res.body, `${method} ${path}`).toEqual({ success: false, status: 401, message: 'Unauthorized' });
    }
  });

  it('gives a non-member 404 with no data on every conversation route', async () => {
    const g = await createGroup(s.url, alice, [bob]);
    const attempts: [string, string, { form?: Form; json?: unknown }][] = [
      ['GET', `/v2/conversations/${g.id}`, {}],
      ['PUT', `/v2/conversations/${g.id}`, { form: { name: 'Taken over' } }],
      ['PUT', `/v2/conversations/${g.id}/mute`, { json: { type: '1h' } }],
      ['POST', `/v2/conversations/${g.id}/delivery_settings`, { json: { mode: 'none' } }],
      ['POST', `/v2/conversations/${g.id}/users`, { form: memberForm([outsider]) }],
      ['DELETE', `/v1/conversations/${g.id}/users/${bob.id}`, {}],
      ['DELETE', `/v1/conversations/${g.id}/users/${outsider.id}`, {}],
      ['PUT', `/v1/conversations/${g.id}/users/${outsider.id}`, { form: { is_admin: 1 } }],
      ['DELETE', `/v1/conversations/${g.id}`, {}],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(s.url, method, path, { token: outsider.token, ...body });
      expect(res.body, `${method} ${path}`).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    }
    expect((await getConversation(s.url, alice, g.id)).name).toBe('Test group');
    expect(await members(g.id)).toEqual(sorted([alice.id, bob.id]));
  });
});
