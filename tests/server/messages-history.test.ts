import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagesAnswer } from '../../src/protocol/api';
import { call, type TestServer, type TestUser } from '../support/server';
import { pagedChat } from './messages-support';

let s: TestServer;
let anna: TestUser;
let bo: TestUser;
let id: number;
let ids: number[];

beforeAll(async () => {
  ({ s, anna, bo, id, ids } = await pagedChat());
});
afterAll(() => s.close());

const page = (headers: Record<string, string> = {}, token = anna.token) =>
  call<MessagesAnswer>(s.url, 'GET', `/v2/conversations/${id}/messages`, { token, headers });

describe('GET /v2/conversations/{id}/messages', () => {
  it('pages back through 50 messages with Before, oldest first in each page', async () => {
    const latest = (await page()).data.messages;
    expect(latest.map((m) => m.id)).toEqual(ids.slice(30));
    expect(latest[0]?.message).toBe('message 31');
    const second = (await page({ Before: String(latest[0]?.id) })).data.messages;
    expect(second.map((m) => m.id)).toEqual(ids.slice(10, 30));
    const third = (await page({ Before: String(second[0]?.id) })).data.messages;
    expect(third.map((m) => m.id)).toEqual(ids.slice(0, 10));
    const none = (await page({ Before: String(third[0]?.id) })).data.messages;
    expect(none).toEqual([]);
  });

  it('honours Message-Count from 1 to 100', async () => {
    expect((await page({ 'Message-Count': '5' })).data.messages.map((m) => m.id)).toEqual(ids.slice(45));
    expect((await page({ 'Message-Count': '1', Before: String(ids[10]) })).data.messages.map((m) => m.id)).toEqual([
      ids[9],
    ]);
    expect((await page({ 'Message-Count': '100' })).data.messages).toHaveLength(50);
  });

  it('refuses a bad Message-Count or Before with a 400', async () => {
    const bad: Record<string, string>[] = [
      { 'Message-Count': '0' },
      { 'Message-Count': '101' },
      { 'Message-Count': 'many' },
      { 'Message-Count': '2.5' },
      { 'Message-Count': '-3' },
      { Before: 'yesterday' },
      { Before: '0' },
    ];
    for (const headers of bad) {
      const r = await page(headers);
      expect(r.status, JSON.stringify(headers)).toBe(400);
      expect(r.body).toMatchObject({ success: false, status: 400 });
    }
    expect((await page({ 'Message-Count': '0' })).body).toMatchObject({
      message: 'Message-Count must be a whole number from 1 to 100',
    });
  });

  it('leaves out messages the reader hid', async () => {
    const hidden = ids[49] as number;
    const hide = await call(s.url, 'POST', `/v2/conversations/${id}/hide_messages`, {
      token: bo.token,
      json: { message_ids: [hidden] },
    });
    expect(hide.status).toBe(200);
    const forBo = (await page({ 'Message-Count': '3' }, bo.token)).data.messages.map((m) => m.id);
    expect(forBo).toEqual([ids[46], ids[47], ids[48]]);
    const forAnna = (await page({ 'Message-Count': '3' })).data.messages.map((m) => m.id);
    expect(forAnna).toEqual([ids[47], ids[48], hidden]);
  });
});
