import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attachment, Conversation } from '../../src/protocol/entities';
import { sql } from '../../server/db/store';
import { insertCommunity, insertConversation } from '../support/fixtures';
import {
  call,
  nextPhone,
  signUp,
  startTestServer,
  TEST_PIN,
  type TestServer,
  TestSocket,
  type TestUser,
} from '../support/server';
import { createGroup, expectNothingAbout, framesAbout, waitFor } from './conversations-support';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('login', () => {
  it('issues a PIN, confirms it once, and registers a nickname', async () => {
    const phone = nextPhone();
    const pin = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    expect(pin.status).toBe(200);
    expect(pin.body).toEqual({ success: true, data: { status: 'sent' } });

    const confirm = await call<{ token: string; user_id: number }>(s.url, 'POST', '/v1/auth/pin/confirm', {
      form: { phone_nr: phone, pin: TEST_PIN },
    });
    expect(confirm.data.token.length).toBeGreaterThanOrEqual(22);
    const token = confirm.data.token;

    // Single use: the same PIN does not work twice.
    const again = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
    expect(again.status).toBe(400);

    const before = await call<{ account: { nickname: string; phone_nr: string } }>(s.url, 'GET', '/v1/me', { token });
    expect(before.data.account).toMatchObject({ nickname: '', phone_nr: phone, country_code: '46', deleted_at: '0' });

    const empty = await call(s.url, 'POST', '/v2/me/register', { token, json: { name: '   ' } });
    expect(empty.body).toEqual({ success: false, status: 400, message: 'Please enter a nickname', code: 'nickname_required' });
    const long = await call(s.url, 'POST', '/v2/me/register', { token, json: { name: 'x'.repeat(51) } });
    expect(long.status).toBe(400);

    const registered = await call<{ account: { nickname: string } }>(s.url, 'POST', '/v2/me/register', {
      token,
      json: { name: '  Anna  ' },
    });
    expect(registered.data.account.nickname).toBe('Anna');

    const updated = await call<{ account: { email: string } }>(s.url, 'PUT', '/v1/me', {
      token,
      form: { email: 'anna@example.org' },
    });
    expect(updated.data.account.email).toBe('anna@example.org');
  });

  it('stores only a hash of the token', async () => {
    const user = await signUp(s.url, 'Hash');
    const rows = await s.server.ctx.db.all<{ hash: string }>(sql`SELECT hash FROM tokens`);
    expect(rows.some((r) => r.hash === user.token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.hash))).toBe(true);
  });

  it('answers 401 without a token or with an unknown one', async () => {
    expect((await call(s.url, 'GET', '/v1/me')).body).toEqual({ success: false, status: 401, message: 'Unauthorized' });
    expect((await call(s.url, 'GET', '/v1/me', { token: 'nope' })).status).toBe(401);
    expect((await call(s.url, 'GET', '/v2/conversations', { token: 'x'.repeat(43) })).status).toBe(401);
  });

  it('refuses bad phone numbers and bad PIN shapes with clear 4xx messages', async () => {
    const bad = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: '+4612' } });
    expect(bad.body).toEqual({
      success: false,
      status: 400,
      message: 'Please enter a valid phone number',
      code: 'invalid_phone',
    });
    const missing = await call(s.url, 'POST', '/v1/auth/pin', { form: {} });
    expect(missing.status).toBe(400);
    const malformed = await call(s.url, 'POST', '/v1/auth/pin', {
      body: '{"phone_nr":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const shape = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: nextPhone(), pin: '12a4' } });
    expect(shape.body).toMatchObject({ status: 400, message: 'Invalid PIN code' });
  });

  it('lists Sweden and Indonesia with patterns that accept real mobile numbers', async () => {
    const { countries } = (
      await call<{ countries: { cc: string; validation: string; validation_abroad: string }[] }>(
        s.url,
        'GET',
        '/v1/countries',
      )
    ).data;
    const se = countries.find((c) => c.cc === '46');
    const id = countries.find((c) => c.cc === '62');
    expect(se && id).toBeTruthy();
    expect(new RegExp(se!.validation).test('0701234567')).toBe(true);
    expect(new RegExp(se!.validation_abroad).test('+46701234567')).toBe(true);
    expect(new RegExp(se!.validation_abroad).test('+46812345678')).toBe(false);
    expect(new RegExp(id!.validation).test('081234567890')).toBe(true);
    expect(new RegExp(id!.validation_abroad).test('+6281234567890')).toBe(true);
  });
});

describe('PIN limits', () => {
  it('locks the number at the fifth wrong try of a PIN, the right PIN refused too (tests/server/pin-lockout.test.ts)', async () => {
    const phone = nextPhone();
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    for (let i = 0; i < 4; i++) {
      const wrong = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: '9999' } });
      expect(wrong.body).toMatchObject({ status: 400, message: 'Invalid PIN code', code: 'invalid_pin' });
    }
    const fifth = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: '9999' } });
    expect(fifth.body).toMatchObject({ status: 429, code: 'pin_locked' });
    const right = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
    expect(right.status).toBe(429);
    expect(right.body).toMatchObject({ success: false, code: 'pin_locked' });
  });

  it('locks a number after ten wrong tries in a day, even with the right PIN', async () => {
    const phone = nextPhone();
    for (let round = 0; round < 2; round++) {
      await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
      for (let i = 0; i < 5; i++) {
        await call(s.url, 'POST', '/v1/auth/pin/confirm', {
          form: { phone_nr: phone, pin: '0000' },
          headers: { 'X-Forwarded-For': `10.0.0.${i}` },
        });
      }
      // The fifth wrong try locked the number for PIN_LOCK_MS: this test's clock is real, so the lock is lifted.
      await s.server.ctx.db.run(sql`UPDATE pins SET expires_at = 0 WHERE phone_nr = ${phone}`);
    }
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
    const locked = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
    expect(locked.status).toBe(429);
  });

  it('rate-limits PIN requests per number', async () => {
    const phone = nextPhone();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } })).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[5]).toBe(429);
  });
});

describe('profile changes', () => {
  const systemEvents = async (conversationId: number) =>
    (
      await s.server.ctx.db.all<{ user_id: number; attachment: string }>(
        sql`SELECT user_id, attachment FROM messages WHERE conversation_id = ${conversationId} AND type = 'system' ORDER BY id`,
      )
    ).map((r) => ({ user_id: r.user_id, ...(JSON.parse(r.attachment) as Attachment) }));
  const oneToOne = async (a: TestUser, phone: string) =>
    (await call<{ conversation: Conversation }>(s.url, 'POST', '/v2/conversations', { token: a.token, form: { 'member[0][value]': phone } }))
      .data.conversation;
  const putMe = (user: TestUser, form: Record<string, string | number>) =>
    call<{ account: { nickname: string; image: { meta: { url: string; is_default: boolean } } } }>(s.url, 'PUT', '/v1/me', { token: user.token, form });
  const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da636460f85f0f0002870180eb47ba920000000049454e44ae426082', 'hex'));

  it('renames in place (issue 23): no message in any chat, the demo chat included, no reorder; every shared chat is edited', async () => {
    const rita = await signUp(s.url, 'Rita');
    const fred = await signUp(s.url, 'Fred');
    const olga = await signUp(s.url, 'Olga');
    const outsider = await signUp(s.url, 'Outsider');
    const mine = await createGroup(s.url, rita, [fred, olga]);
    const theirs = await createGroup(s.url, fred, [rita]);
    const chat = await oneToOne(rita, fred.phone);
    const demo = await insertConversation(s.server.ctx.db, {
      members: [fred.id, rita.id],
      admins: [fred.id],
      name: 'Welcome to Messenger',
      isGroup: true,
      demo: true,
    });
    const community = await insertCommunity(s.server.ctx.db, { name: 'Club', ownerId: fred.id, members: [rita.id] });
    const channel = await insertConversation(s.server.ctx.db, {
      members: [fred.id, rita.id],
      admins: [fred.id],
      name: 'Lobby',
      isGroup: true,
      groupType: 'channel',
      communityId: community.id,
    });
    const listOrder = async () =>
      (await call<{ conversations: { conversation: Conversation }[] }>(s.url, 'GET', '/v2/conversations', { token: fred.token })).data.conversations.map(
        (c) => [c.conversation.id, c.conversation.last_message_time],
      );
    const orderBefore = await listOrder();
    const fredSock = new TestSocket(s.url, fred.token);
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([fredSock.loaded(), outSock.loaded()]);
    try {
      const res = await putMe(rita, { nickname: '  Rita B  ' });
      expect(res.data.account.nickname).toBe('Rita B');
      for (const c of [mine, theirs, chat, demo, channel]) expect(await systemEvents(c.id)).toEqual([]);

      // Every shared normal chat is edited with the new name in its member list; the one-to-one chat is named after her.
      for (const id of [mine.id, theirs.id, chat.id, demo.id]) {
        const edit = await waitFor(fredSock, 'conversation_edit', id);
        expect(edit.data.conversation.users.find((u) => u.user.id === rita.id)?.user.nickname).toBe('Rita B');
      }
      expect((await waitFor(fredSock, 'conversation_edit', chat.id)).data.conversation.name).toBe('Rita B');
      for (const id of [mine.id, theirs.id, chat.id, demo.id, channel.id]) expect(framesAbout(fredSock, 'conversation_message', id)).toEqual([]);
      expect(framesAbout(fredSock, 'conversation_edit', channel.id)).toEqual([]);
      await expectNothingAbout(s.url, outsider, outSock, mine.id);
      // Nothing moved up Fred's list.
      expect(await listOrder()).toEqual(orderBefore);

      // Registering again is a rename too; the same name again changes nothing.
      await call(s.url, 'POST', '/v2/me/register', { token: rita.token, json: { name: 'Rita C' } }).then((r) => r.data);
      await putMe(rita, { nickname: 'Rita C' }).then((r) => r.data);
      await call(s.url, 'POST', '/v2/me/register', { token: rita.token, json: { name: 'Rita C' } }).then((r) => r.data);
      // Frames reach Fred in order: once the edit of a later real rename is in, any from the no-ops would be too.
      await putMe(rita, { nickname: 'Rita D' }).then((r) => r.data);
      await fredSock.next((f) => f.action === 'conversation_edit' && f.data.conversation.name === 'Rita D');
      expect(framesAbout(fredSock, 'conversation_edit', chat.id).map((f) => f.data.conversation.name)).toEqual([
        'Rita B',
        'Rita C',
        'Rita D',
      ]);
      expect(await systemEvents(mine.id)).toEqual([]);
    } finally {
      fredSock.close();
      outSock.close();
    }
  });

  it('posts nothing for a first nickname, and renames the one-to-one chats it names', async () => {
    const anna = await signUp(s.url, 'Anna');
    const phone = nextPhone();
    const group = await createGroup(s.url, anna, [phone]);
    const chat = await oneToOne(anna, phone);
    expect(chat.name).toBe(phone);
    const annaSock = new TestSocket(s.url, anna.token);
    await annaSock.loaded();
    try {
      await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } }).then((r) => r.data);
      const { token } = (
        await call<{ token: string }>(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } })
      ).data;
      await call(s.url, 'POST', '/v2/me/register', { token, json: { name: 'Newbie' } }).then((r) => r.data);
      expect((await waitFor(annaSock, 'conversation_edit', chat.id)).data.conversation.name).toBe('Newbie');
      expect((await systemEvents(group.id)).filter((e) => e.event_type === 'user_renamed')).toEqual([]);
      expect(framesAbout(annaSock, 'conversation_message', group.id)).toEqual([]);
    } finally {
      annaSock.close();
    }
  });

  it('tells the people sharing a chat of a new picture with conversation_edit, posting nothing', async () => {
    const pia = await signUp(s.url, 'Pia');
    const fred = await signUp(s.url, 'Fred');
    const outsider = await signUp(s.url, 'Outsider');
    const group = await createGroup(s.url, fred, [pia]);
    const chat = await oneToOne(fred, pia.phone);
    const form = new FormData();
    form.append('image', new Blob([PNG], { type: 'image/png' }), 'a.png');
    const image = (await call<{ image: { id: number; url: string } }>(s.url, 'POST', '/v1/images', { token: pia.token, body: form }))
      .data.image;
    const fredSock = new TestSocket(s.url, fred.token);
    const outSock = new TestSocket(s.url, outsider.token);
    await Promise.all([fredSock.loaded(), outSock.loaded()]);
    try {
      const messagesBefore = [(await systemEvents(group.id)).length, (await systemEvents(chat.id)).length];
      expect((await putMe(pia, { image_id: image.id })).data.account.image.meta.url).toBe(image.url);
      for (const c of [group, chat]) {
        const edit = await waitFor(fredSock, 'conversation_edit', c.id);
        expect(edit.data.conversation.users.find((u) => u.user.id === pia.id)?.user.image.meta).toMatchObject({
          url: image.url,
          is_default: false,
        });
      }
      expect([(await systemEvents(group.id)).length, (await systemEvents(chat.id)).length]).toEqual(messagesBefore);
      await expectNothingAbout(s.url, outsider, outSock, group.id);
      // The one-to-one chat shows Pia's picture to Fred (it is named after her too); the group keeps its own.
      const shown = (await waitFor(fredSock, 'conversation_edit', chat.id)).data.conversation;
      expect([shown.avatar.meta.url, shown.image.meta.url]).toEqual([image.url, image.url]);
      const groupShown = (await waitFor(fredSock, 'conversation_edit', group.id)).data.conversation;
      expect(groupShown.avatar.meta.is_default).toBe(true);
      // Pia's own view of the chat shows Fred's (default) picture, not her own.
      const piaSees = await call<{ conversation: { avatar: { meta: { is_default: boolean } } } }>(s.url, 'GET', `/v2/conversations/${chat.id}`, { token: pia.token });
      expect(piaSees.data.conversation.avatar.meta.is_default).toBe(true);

      // image_id 0 removes it: the default avatar again, announced the same way.
      fredSock.frames.length = 0;
      expect((await putMe(pia, { image_id: 0 })).data.account.image.meta.is_default).toBe(true);
      const removed = await waitFor(fredSock, 'conversation_edit', chat.id);
      expect(removed.data.conversation.users.find((u) => u.user.id === pia.id)?.user.image.meta.is_default).toBe(true);
    } finally {
      fredSock.close();
      outSock.close();
    }
  });
});
