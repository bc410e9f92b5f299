import { describe, expect, it } from 'vitest';
import type { ConversationAnswer, DlrsAnswer } from '../../src/protocol/api';
import { sql } from '../../server/db/store';
import { call, type TestUser, useTestServer, useUsers } from '../support/server';
import { actionsOf, conversation, count, received, sent, settle, socket } from './messages-support';

const s = useTestServer();
const [anna, bo, cay, out] = useUsers(s, 'Anna', 'Bo', 'Cay', 'Out');

const receipt = (user: TestUser, conversationId: number, messageId: number | string, read: string) =>
  call<DlrsAnswer>(s.url, 'POST', `/v1/conversations/${conversationId}/messages/${messageId}`, {
    token: user.token,
    form: { read },
  });
const dlrs = (user: TestUser, conversationId: number) =>
  call<DlrsAnswer>(s.url, 'GET', `/v2/conversations/${conversationId}/dlrs`, { token: user.token });
const receiptsIn = () => count(s, sql`SELECT COUNT(*) AS n FROM receipts`);
const readMarker = (conversationId: number, user: TestUser) =>
  count(
    s,
    sql`SELECT last_read_message_id AS n FROM conversation_members WHERE conversation_id = ${conversationId} AND user_id = ${user.id}`,
  );

describe('POST /v1/conversations/{id}/messages/{msgId}', () => {
  it('records delivered then read once each, telling the sender and the reader’s other devices', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id] });
    const msg = await sent(s, anna, id, 'hello');
    const [sa, sb, sc, so] = [await socket(s, anna), await socket(s, bo), await socket(s, cay), await socket(s, out)];

    const delivered = await receipt(bo, id, msg, 'false');
    expect(delivered.status).toBe(200);
    expect(delivered.data.dlrs).toEqual([
      { message_id: msg, user_id: bo.id, type: 'delivered', at: expect.stringMatching(/^\d+$/) },
    ]);
    const read = await receipt(bo, id, msg, 'true');
    expect(read.data.dlrs.map((d) => d.type)).toEqual(['delivered', 'read']);
    // Repeats change nothing and tell nobody.
    await receipt(bo, id, msg, 'true');
    await receipt(bo, id, msg, 'false');

    await settle(s, [sa, anna], [sb, bo], [sc, cay], [so, out]);
    expect(received(sa, 'message_dlr2')).toEqual([
      { conversation_id: id, message_id: msg, user_id: bo.id, type: 'delivered' },
      { conversation_id: id, message_id: msg, user_id: bo.id, type: 'read' },
    ]);
    expect(actionsOf(sa)).toEqual(['message_dlr2', 'message_dlr2']);
    expect(received(sb, 'self_dlr_sync')).toEqual([
      { conversation_id: id, message_id: msg, type: 'delivered' },
      { conversation_id: id, message_id: msg, type: 'read' },
    ]);
    expect(actionsOf(sb)).toEqual(['self_dlr_sync', 'self_dlr_sync']);
    expect(actionsOf(sc)).toEqual([]);
    expect(actionsOf(so)).toEqual([]);
    expect(await receiptsIn()).toBe(2);
    for (const sock of [sa, sb, sc, so]) sock.close();
  });

  it('takes a read as delivered too, and accepts the message stid', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const stid = (await call<{ message: { stid: string } }>(s.url, 'POST', `/v2/conversations/${id}/messages`, {
      token: anna.token,
      json: { client_id: 1, message: 'hi' },
    })).data.message.stid;
    const r = await receipt(bo, id, stid, 'true');
    expect(r.data.dlrs.map((d) => d.type)).toEqual(['delivered', 'read']);
  });

  it('drops the unread count once the last message is read', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    await sent(s, anna, id, 'one');
    const last = await sent(s, anna, id, 'two');
    const unread = async () =>
      (await call<ConversationAnswer>(s.url, 'GET', `/v2/conversations/${id}`, { token: bo.token })).data.conversation
        .unread_message_count;
    expect(await unread()).toBe(2);
    await receipt(bo, id, last, 'false');
    expect(await unread()).toBe(2);
    await receipt(bo, id, last, 'true');
    expect(await unread()).toBe(0);
    expect(await readMarker(id, bo)).toBe(last);
    // Reading an older message never moves the marker back.
    const first = last - 1;
    await receipt(bo, id, first, 'true');
    expect(await readMarker(id, bo)).toBe(last);
  });

  it('refuses receipts for own messages, unknown messages and bad bodies', async () => {
    const id = await conversation(s, { members: [anna.id, bo.id] });
    const other = await conversation(s, { members: [bo.id, cay.id] });
    const msg = await sent(s, anna, id, 'mine');
    const elsewhere = await sent(s, cay, other, 'not here');
    const before = await receiptsIn();
    expect((await receipt(anna, id, msg, 'true')).body).toEqual({
      success: false,
      status: 400,
      message: 'Receipts are only sent for messages of other users',
    });
    expect((await receipt(bo, id, 999_999, 'true')).status).toBe(404);
    expect((await receipt(bo, id, elsewhere, 'true')).status).toBe(404);
    expect((await receipt(bo, id, 'not!an!id', 'true')).status).toBe(400);
    expect((await receipt(bo, id, msg, 'yes')).status).toBe(400);
    const missing = await call(s.url, 'POST', `/v1/conversations/${id}/messages/${msg}`, { token: bo.token, form: {} });
    expect(missing.status).toBe(400);
    const malformed = await call(s.url, 'POST', `/v1/conversations/${id}/messages/${msg}`, {
      token: bo.token,
      body: '{"read":',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(await receiptsIn()).toBe(before);
    expect(await readMarker(id, bo)).toBe(0);
  });
});

describe('GET /v2/conversations/{id}/dlrs', () => {
  it("lists receipts on the caller's own messages only", async () => {
    const id = await conversation(s, { members: [anna.id, bo.id, cay.id] });
    const a1 = await sent(s, anna, id, 'a1');
    const b1 = await sent(s, bo, id, 'b1');
    await receipt(bo, id, a1, 'true');
    await receipt(cay, id, a1, 'false');
    await receipt(anna, id, b1, 'true');
    const forAnna = (await dlrs(anna, id)).data.dlrs;
    expect(forAnna.map(({ message_id, user_id, type }) => ({ message_id, user_id, type }))).toEqual([
      { message_id: a1, user_id: bo.id, type: 'delivered' },
      { message_id: a1, user_id: bo.id, type: 'read' },
      { message_id: a1, user_id: cay.id, type: 'delivered' },
    ]);
    const forCay = (await dlrs(cay, id)).data.dlrs;
    expect(forCay).toEqual([]);
    expect((await dlrs(bo, id)).data.dlrs.map((d) => [d.message_id, d.user_id, d.type])).toEqual([
      [b1, anna.id, 'delivered'],
      [b1, anna.id, 'read'],
    ]);
  });
});
