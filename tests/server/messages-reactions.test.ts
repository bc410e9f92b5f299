import { describe, expect, it } from 'vitest';
import type { MessageAnswer } from '../../src/protocol/api';
import { isValidReaction } from '../../src/protocol/reactions';
import { REACTIONS_PER_USER_MAX } from '../../server/domain/reactions';
import { sql } from '../../server/db/store';
import { call, type TestUser, useTestServer, useUsers } from '../support/server';
import { actionsOf, conversation, count, received, sent, settle, socket } from './messages-support';

const s = useTestServer();
const [anna, bo, cay, out] = useUsers(s, 'Anna', 'Bo', 'Cay', 'Out');

const react = (method: 'POST' | 'DELETE', user: TestUser, conversationId: number, messageId: number, json: unknown) =>
  call<MessageAnswer>(s.url, method, `/v2/conversations/${conversationId}/messages/${messageId}/reactions`, {
    token: user.token,
    json,
  });
const reactionsIn = () => count(s, sql`SELECT COUNT(*) AS n FROM reactions`);

describe('reaction validation', () => {
  it('takes one emoji, flags and keycaps included', () => {
    const valid = ['👍', '👍🏽', '❤️', '🇸🇪', '🇮🇩', '👨‍👩‍👧‍👦', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '1️⃣', '🎉', '🏳️‍🌈', '🧑🏽‍🤝‍🧑🏻', '#️⃣'];
    for (const ok of valid) {
      expect(isValidReaction(ok), ok).toBe(true);
    }
    const marked = ['😀\u0301\u0302\u0303', '👍\u0300', '👍\uFE0E', '👍🏽🏽', '👍\u200D', '😀\u20E3', '1\u20E3\u0301', '🏴\u{E0067}'];
    for (const bad of ['', 'a', 'ok', '👍👍', 'a👍', '👍 ', ' ', '🇸', '<b>', '1', 5, null, ...marked]) {
      expect(isValidReaction(bad), String(bad)).toBe(false);
    }
  });
});

describe('POST and DELETE /v2/conversations/{id}/messages/{msgId}/reactions', () => {
  it('adds and removes idempotently, telling members only on a real change', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'react to me');
    const stid = (await s.server.ctx.db.get<{ stid: string }>(sql`SELECT stid FROM messages WHERE id = ${msg}`))!.stid;
    const [sa, so] = [await socket(s, anna), await socket(s, out)];

    const added = await react('POST', bo, id, msg, { reaction: '👍' });
    expect(added.status).toBe(200);
    expect(added.data.message.reactions).toEqual([
      { reaction: '👍', users: [{ user_id: bo.id, set_at: expect.stringMatching(/^\d+$/) }] },
    ]);
    expect((await react('POST', bo, id, msg, { reaction: '👍' })).data.message.reactions).toEqual(
      added.data.message.reactions,
    );
    await react('POST', anna, id, msg, { reaction: '👍' });
    expect(await reactionsIn()).toBe(2);
    const removed = await react('DELETE', bo, id, msg, { reaction: '👍' });
    expect(removed.data.message.reactions).toEqual([
      { reaction: '👍', users: [{ user_id: anna.id, set_at: expect.any(String) }] },
    ]);
    await react('DELETE', bo, id, msg, { reaction: '👍' });
    expect(await reactionsIn()).toBe(1);

    await settle(s, [sa, anna], [so, out]);
    const events = received(sa, 'reactions_changed');
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      conversation_id: id,
      message_id: msg,
      message_stid: stid,
      reactions: added.data.message.reactions,
    });
    expect(events[2]?.reactions).toEqual(removed.data.message.reactions);
    expect(actionsOf(so)).toEqual([]);
    sa.close();
    so.close();
  });

  it('refuses anything but one emoji with the spec text, and unknown messages with 404', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const other = await conversation(s, { members: [cay.id, bo.id] });
    const msg = await sent(s, anna, id, 'x');
    const elsewhere = await sent(s, cay, other, 'y');
    const before = await reactionsIn();
    const invalid: unknown[] = [
      { reaction: '' },
      { reaction: 'lol' },
      { reaction: '👍👍' },
      { reaction: '😀'.repeat(9) },
      { reaction: '😀\u0301\u0302\u0303' },
      { reaction: 5 },
      {},
      { reaction: { e: '👍' } },
      ['👍'],
    ];
    for (const json of invalid) {
      for (const method of ['POST', 'DELETE'] as const) {
        const r = await react(method, bo, id, msg, json);
        expect(r.body, `${method} ${JSON.stringify(json)}`).toEqual({
          success: false,
          status: 400,
          message: 'Invalid parameters provided',
        });
      }
    }
    expect((await react('POST', bo, id, 999_999, { reaction: '👍' })).status).toBe(404);
    expect((await react('POST', bo, id, elsewhere, { reaction: '👍' })).status).toBe(404);
    const malformed = await call(s.url, 'POST', `/v2/conversations/${id}/messages/${msg}/reactions`, {
      token: bo.token,
      body: '{"reaction":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await reactionsIn()).toBe(before);
  });

  it(`allows at most ${REACTIONS_PER_USER_MAX} different reactions per user on a message`, async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'popular');
    const emoji = ['😀', '😁', '😂', '🤣', '😃', '😄', '😅', '😆', '😉', '😊', '😋'];
    for (const e of emoji.slice(0, REACTIONS_PER_USER_MAX)) {
      expect((await react('POST', bo, id, msg, { reaction: e })).status).toBe(200);
    }
    const over = await react('POST', bo, id, msg, { reaction: emoji[REACTIONS_PER_USER_MAX] });
    expect(over.status).toBe(400);
    // Re-adding one already there is still fine.
    expect((await react('POST', bo, id, msg, { reaction: emoji[0] })).status).toBe(200);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM reactions WHERE message_id = ${msg}`)).toBe(REACTIONS_PER_USER_MAX);
  });

  it(`keeps to ${REACTIONS_PER_USER_MAX} reactions when one user sends many at once`, async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const msg = await sent(s, anna, id, 'raced');
    const emoji = ['😀', '😁', '😂', '🤣', '😃', '😄', '😅', '😆', '😉', '😊', '😋', '😎', '😍', '😘', '🥰', '😗'];
    // On PostgreSQL the requests run side by side: each one's count must see the others' rows.
    const answers = await Promise.all(emoji.map((e) => react('POST', bo, id, msg, { reaction: e })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(REACTIONS_PER_USER_MAX);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(emoji.length - REACTIONS_PER_USER_MAX);
    expect(await count(s, sql`SELECT COUNT(*) AS n FROM reactions WHERE message_id = ${msg}`)).toBe(REACTIONS_PER_USER_MAX);
  });

  it('tells only the sender and admins about reactions on a broadcast reply', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id], admins: [anna.id], broadcast: true });
    const post = await sent(s, anna, id, 'news');
    const reply = await sent(s, bo, id, 'a reply', { quoted_message_id: post });
    const [sa, sb, sc] = [await socket(s, anna), await socket(s, bo), await socket(s, cay)];
    expect((await react('POST', anna, id, reply, { reaction: '❤️' })).status).toBe(200);
    expect((await react('POST', cay, id, reply, { reaction: '👎' })).status).toBe(404);
    // A reaction on the public post reaches everybody.
    expect((await react('POST', cay, id, post, { reaction: '🎉' })).status).toBe(200);
    await settle(s, [sa, anna], [sb, bo], [sc, cay]);
    expect(received(sa, 'reactions_changed').map((e) => e.message_id)).toEqual([reply, post]);
    expect(received(sb, 'reactions_changed').map((e) => e.message_id)).toEqual([reply, post]);
    expect(received(sc, 'reactions_changed').map((e) => e.message_id)).toEqual([post]);
    for (const sock of [sa, sb, sc]) sock.close();
  });
});
