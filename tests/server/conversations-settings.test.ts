import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/protocol/entities';
import { ManualClock } from '../../server/clock';
import { sql } from '../../server/db/store';
import { insertCommunity, insertConversation } from '../support/fixtures';
import { call, TestSocket, type TestUser, useTestServer, useUsers } from '../support/server';
import { createGroup, expectNothingAbout, type Form, framesAbout, waitFor } from './conversations-support';

const clock = new ManualClock();
const s = useTestServer({}, { clock });
const [alice, bob, outsider] = useUsers(s, 'Alice', 'Bob', 'Outsider');

const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));
async function uploadAvatar(user: TestUser): Promise<{ id: number; url: string }> {
  const form = new FormData();
  form.append('image', new Blob([PNG], { type: 'image/png' }), 'a.png');
  return (await call<{ image: { id: number; url: string } }>(s.url, 'POST', '/v1/images', { token: user.token, body: form })).data
    .image;
}

const edit = (user: TestUser, id: number | string, form: Form) =>
  call<{ conversation: Conversation }>(s.url, 'PUT', `/v2/conversations/${id}`, { token: user.token, form });
const messageCount = async (id: number) =>
  (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${id}`))!.n;
const row = async (id: number) =>
  (await s.server.ctx.db.get<{ name: string; description: string; image_file_id: number | null }>(
    sql`SELECT name, description, image_file_id FROM conversations WHERE id = ${id}`,
  ))!;

async function channel() {
  const community = await insertCommunity(s.server.ctx.db, { name: 'Club', ownerId: alice.id, members: [bob.id] });
  return insertConversation(s.server.ctx.db, {
    members: [alice.id, bob.id],
    admins: [alice.id],
    name: 'Lobby',
    isGroup: true,
    groupType: 'channel',
    communityId: community.id,
  });
}

describe('PUT /v2/conversations/{id}', () => {
  it('renames, describes and pictures a group, one system message per real change', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Before' });
    const renamed = await edit(alice, g.id, { name: '  After  ', description: 'About us' });
    expect(renamed.data.conversation).toMatchObject({ name: 'After', description: 'About us' });
    const events = renamed.data.conversation.messages.map((m) => [m.type, m.user_id, m.attachment?.event_type, m.attachment?.event]);
    expect(events).toEqual([
      ['system', alice.id, 'conversation_renamed', { name: 'After', description: 'About us', user_id: alice.id }],
      ['system', alice.id, 'conversation_description_changed', { name: 'After', description: 'About us', user_id: alice.id }],
    ]);

    const image = await uploadAvatar(alice);
    const pictured = await edit(alice, g.id, { image_id: image.id, name: 'After' });
    expect(pictured.data.conversation.image.meta).toMatchObject({ url: image.url, is_default: false });
    expect(pictured.data.conversation.last_message?.attachment?.event_type).toBe('conversation_picture_change');
    expect(await messageCount(g.id)).toBe(3);

    const cleared = await edit(alice, g.id, { image_id: 0 });
    expect(cleared.data.conversation.image.meta.is_default).toBe(true);
    expect(await messageCount(g.id)).toBe(4);
  });

  it('treats unchanged values as no-ops: no message, no event', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Same', description: 'Same' });
    const events = (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM events`))!.n;
    const res = await edit(alice, g.id, { name: ' Same ', description: 'Same' });
    expect(res.status).toBe(200);
    expect(await messageCount(g.id)).toBe(0);
    expect((await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM events`))!.n).toBe(events);
  });

  it('refuses non-admins, one-to-one chats and community channels with 403', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Admins rule' });
    const byMember = await edit(bob, g.id, { name: 'Mine now' });
    expect(byMember.body).toEqual({ success: false, status: 403, message: 'Only admins can change group settings' });
    expect((await row(g.id)).name).toBe('Admins rule');

    const oneToOne = (await call<{ conversation: Conversation }>(s.url, 'POST', '/v2/conversations', {
      token: alice.token,
      form: { 'member[0][value]': bob.phone },
    })).data.conversation;
    expect((await edit(alice, oneToOne.id, { name: 'Us' })).status).toBe(403);
    expect((await edit(alice, (await channel()).id, { name: 'Renamed channel' })).body).toMatchObject({
      status: 403,
      message: 'Community channels are managed by their community',
    });
  });

  it('gives a non-member 404 and changes nothing', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Closed' });
    const res = await edit(outsider, g.id, { name: 'Hijacked' });
    expect(res.body).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    expect((await row(g.id)).name).toBe('Closed');
  });

  it('refuses bad input and writes nothing', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Strict' });
    const image = await uploadAvatar(outsider);
    const cases: [Form | string, RegExp][] = [
      [{ name: '' }, /Name cannot be empty/],
      [{ name: 'x' }, /Name must be at least 2 characters/],
      [{ name: 'x'.repeat(51) }, /Name must be at most 50 characters/],
      [{ name: 'Fine', description: 'd'.repeat(501) }, /Description must be at most 500 characters/],
      [{ image_id: 'abc' }, /image_id/],
      [{ image_id: image.id }, /Unknown image/],
      [{ image_id: 99999 }, /Unknown image/],
      [{}, /Nothing to update/],
      ['{"name": ', /not valid JSON/],
    ];
    for (const [form, message] of cases) {
      const res =
        typeof form === 'string'
          ? await call(s.url, 'PUT', `/v2/conversations/${g.id}`, { token: alice.token, body: form, headers: { 'Content-Type': 'application/json' } })
          : await edit(alice, g.id, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      if (!res.body.success) expect(res.body.message).toMatch(message);
    }
    expect(await row(g.id)).toEqual({ name: 'Strict', description: '', image_file_id: null });
    expect(await messageCount(g.id)).toBe(0);
  });

  it('emits conversation_edit and the system message to members only', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Watched' });
    const bobSock = new TestSocket(s.url, bob.token);
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([bobSock.loaded(), outSock.loaded()]);
    try {
      await edit(alice, g.id, { name: 'Watched closely' });
      const edited = await waitFor(bobSock, 'conversation_edit', g.id);
      expect(edited.data.conversation).toMatchObject({ name: 'Watched closely', member: { is_admin: false } });
      const message = await waitFor(bobSock, 'conversation_message', g.id);
      expect(message.data.message.attachment).toMatchObject({ event_type: 'conversation_renamed', event: { name: 'Watched closely' } });
      expect(framesAbout(bobSock, 'conversation_edit', g.id)).toHaveLength(1);
      await expectNothingAbout(s.url, outsider, outSock, g.id);
    } finally {
      bobSock.close();
      outSock.close();
    }
  });

  it('answers 401 without a token', async () => {
    expect((await call(s.url, 'PUT', '/v2/conversations/1', { form: { name: 'x' } })).status).toBe(401);
  });
});

describe('PUT /v2/conversations/{id}/mute', () => {
  const mute = (user: TestUser, id: number, json: unknown) =>
    call<{ mute: { type: string; time_zone: string; until: string | null; muted: boolean } | null }>(
      s.url,
      'PUT',
      `/v2/conversations/${id}/mute`,
      { token: user.token, json },
    );
  const stored = async (id: number, userId: number) =>
    (await s.server.ctx.db.get<{ mute: string | null }>(
      sql`SELECT mute FROM conversation_members WHERE conversation_id = ${id} AND user_id = ${userId}`,
    ))!.mute;

  it('mutes for a duration or for ever, and unmutes', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Noisy' });
    const now = Math.floor(clock.now() / 1000);
    const hour = await mute(bob, g.id, { type: '8h', time_zone: 'Europe/Stockholm' });
    expect(hour.data.mute).toEqual({ type: '8h', time_zone: 'Europe/Stockholm', until: String(now + 8 * 3600), muted: true });
    expect(JSON.parse((await stored(g.id, bob.id)) ?? 'null')).toMatchObject({ type: '8h', time_zone: 'Europe/Stockholm' });
    expect(await stored(g.id, alice.id)).toBeNull();

    clock.advance(9 * 3_600_000);
    const forever = await mute(bob, g.id, { type: 'forever' });
    expect(forever.data.mute).toEqual({ type: 'forever', time_zone: 'UTC', until: null, muted: true });

    // The conversation shows the viewer's own mute, and only theirs.
    const view = async (user: TestUser) =>
      (await call<{ conversation: Conversation }>(s.url, 'GET', `/v2/conversations/${g.id}`, { token: user.token })).data.conversation;
    expect((await view(bob)).member.mute).toEqual({ type: 'forever', time_zone: 'UTC', until: null });
    expect((await view(alice)).member.mute).toBeNull();

    // Bob's other devices learn of it: a conversation_edit to him alone.
    const device = new TestSocket(s.url, bob.token);
    const aliceSocket = new TestSocket(s.url, alice.token);
    await Promise.all([device.loaded(), aliceSocket.loaded()]);
    const unmuted = await mute(bob, g.id, { type: 'unmute', time_zone: 'Asia/Jakarta' });
    expect(unmuted.data.mute).toBeNull();
    expect(await stored(g.id, bob.id)).toBeNull();
    const edit = await device.next((f) => f.action === 'conversation_edit');
    expect(edit).toMatchObject({ data: { conversation_id: g.id, conversation: { member: { mute: null } } } });
    expect(aliceSocket.actions()).not.toContain('conversation_edit');
    device.close();
    aliceSocket.close();
  });

  it('refuses unknown types and time zones, and non-members', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Quiet' });
    expect((await mute(bob, g.id, { type: '3h' })).status).toBe(400);
    expect((await mute(bob, g.id, {})).status).toBe(400);
    expect((await mute(bob, g.id, { type: 7 })).status).toBe(400);
    expect((await mute(bob, g.id, { type: '1h', time_zone: 'Mars/Olympus' })).body).toMatchObject({ status: 400, message: 'Unknown time zone' });
    expect(await stored(g.id, bob.id)).toBeNull();
    expect((await mute(outsider, g.id, { type: '1h' })).body).toEqual({ success: false, status: 404, message: 'Conversation not found' });
    const malformed = await call(s.url, 'PUT', `/v2/conversations/${g.id}/mute`, {
      token: bob.token,
      body: '{"type":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await call(s.url, 'PUT', `/v2/conversations/${g.id}/mute`, { json: { type: '1h' } })).status).toBe(401);
  });

  it('lets a member mute a community channel', async () => {
    const res = await mute(bob, (await channel()).id, { type: '1w' });
    expect(res.data.mute?.type).toBe('1w');
  });
});

describe('POST /v2/conversations/{id}/delivery_settings', () => {
  const deliver = (user: TestUser, id: number, json: unknown) =>
    call<{ delivery_settings: { mode: string; smart_mode_options: { interval_minutes: number } | null } }>(
      s.url,
      'POST',
      `/v2/conversations/${id}/delivery_settings`,
      { token: user.token, json },
    );
  const stored = async (id: number, userId: number) =>
    (await s.server.ctx.db.get<{ d: string | null }>(
      sql`SELECT delivery_settings AS d FROM conversation_members WHERE conversation_id = ${id} AND user_id = ${userId}`,
    ))!.d;

  it('stores each mode, smart with its interval', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Deliveries' });
    for (const mode of ['all', 'silent', 'none']) {
      const res = await deliver(bob, g.id, { mode });
      expect(res.data.delivery_settings).toEqual({ mode, smart_mode_options: null });
    }
    const smartDefault = await deliver(bob, g.id, { mode: 'smart' });
    expect(smartDefault.data.delivery_settings).toEqual({ mode: 'smart', smart_mode_options: { interval_minutes: 5 } });
    const smart = await deliver(bob, g.id, { mode: 'smart', smart_mode_options: { interval_minutes: 30 } });
    expect(smart.data.delivery_settings.smart_mode_options).toEqual({ interval_minutes: 30 });
    expect(JSON.parse((await stored(g.id, bob.id)) ?? 'null')).toEqual({ mode: 'smart', smart_mode_options: { interval_minutes: 30 } });
    expect(await stored(g.id, alice.id)).toBeNull();
  });

  it('refuses bad modes and options, and non-members, writing nothing', async () => {
    const g = await createGroup(s.url, alice, [bob], { name: 'Picky' });
    const bad: unknown[] = [
      {},
      { mode: 'loud' },
      { mode: 'all', smart_mode_options: { interval_minutes: 5 } },
      { mode: 'smart', smart_mode_options: { interval_minutes: 0 } },
      { mode: 'smart', smart_mode_options: { interval_minutes: 1441 } },
      { mode: 'smart', smart_mode_options: { every: 5 } },
      { mode: 'smart', smart_mode_options: 'often' },
    ];
    for (const json of bad) {
      const res = await deliver(bob, g.id, json);
      expect(res.status, JSON.stringify(json)).toBe(400);
      expect(res.body.success).toBe(false);
    }
    expect(await stored(g.id, bob.id)).toBeNull();
    expect((await deliver(outsider, g.id, { mode: 'all' })).status).toBe(404);
    expect((await call(s.url, 'POST', `/v2/conversations/${g.id}/delivery_settings`, { json: { mode: 'all' } })).status).toBe(401);
  });
});
