import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagesAnswer } from '../../src/protocol/api';
import { call, type TestServer, type TestUser } from '../support/server';
import { pagedChat, users } from './messages-support';

/** Our `After` header (issue 13, docs/server.md): the page right after a message, as `Before` pages back. */
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
const pageIds = async (headers: Record<string, string>, token = anna.token) =>
  (await page(headers, token)).data.messages.map((m) => m.id);

describe('GET /v2/conversations/{id}/messages with After', () => {
  it('pages forward from the oldest message to the latest, oldest first in each page', async () => {
    const first = ids[0] as number;
    expect(await pageIds({ After: String(first) })).toEqual(ids.slice(1, 21));
    expect(await pageIds({ After: String(ids[20]) })).toEqual(ids.slice(21, 41));
    // The last page is short, and after the latest message there is nothing.
    expect(await pageIds({ After: String(ids[40]) })).toEqual(ids.slice(41));
    expect(await pageIds({ After: String(ids[49]) })).toEqual([]);
  });

  it('meets the Before pages exactly: a page around a message is Before id+1 and After id', async () => {
    const middle = ids[25] as number;
    const older = await pageIds({ 'Message-Count': '5', Before: String(middle + 1) });
    const newer = await pageIds({ 'Message-Count': '5', After: String(middle) });
    expect([...older, ...newer]).toEqual(ids.slice(21, 31));
  });

  it('takes an id that is not a message of the chat (another chat’s) as a place in the order', async () => {
    // The neighbour's message came right after our tenth.
    const elsewhere = (ids[9] as number) + 1;
    expect(ids).not.toContain(elsewhere);
    expect(await pageIds({ 'Message-Count': '3', After: String(elsewhere) })).toEqual(ids.slice(10, 13));
    expect(await pageIds({ 'Message-Count': '100', After: '1' })).toEqual(ids.filter((m) => m > 1));
  });

  it('honours Message-Count and leaves out messages the reader hid', async () => {
    expect(await pageIds({ 'Message-Count': '1', After: String(ids[9]) })).toEqual([ids[10]]);
    const hidden = ids[11] as number;
    const hide = await call(s.url, 'POST', `/v2/conversations/${id}/hide_messages`, {
      token: bo.token,
      json: { message_ids: [hidden] },
    });
    expect(hide.status).toBe(200);
    expect(await pageIds({ 'Message-Count': '3', After: String(ids[9]) }, bo.token)).toEqual([ids[10], ids[12], ids[13]]);
    expect(await pageIds({ 'Message-Count': '3', After: String(ids[9]) })).toEqual([ids[10], hidden, ids[12]]);
  });

  it('refuses a bad After by the number rule, naming the field', async () => {
    for (const value of ['yesterday', '0', '-3', '2.5', '1e3', '0x10', '7 8', '9007199254740992']) {
      const r = await page({ After: value });
      expect(r.status, JSON.stringify(value)).toBe(400);
      expect(r.body).toMatchObject({
        success: false,
        status: 400,
        message: 'After must be a whole number from 1 to 9007199254740991',
      });
    }
  });

  it('refuses Before and After together, in the language asked for', async () => {
    const both = { Before: String(ids[30]), After: String(ids[10]) };
    const r = await page(both);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, status: 400, message: 'Before and After cannot be used together' });
    const sv = await page({ ...both, 'Accept-Language': 'sv' });
    expect(sv.body).toMatchObject({ status: 400, message: 'Before och After kan inte användas tillsammans' });
  });

  it('answers only members, as Before does', async () => {
    const carl = (await users(s, 'Carl'))[0] as TestUser;
    const r = await page({ After: String(ids[0]) }, carl.token);
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.body).toMatchObject({ success: false });
  });
});
