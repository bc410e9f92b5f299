import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import type { MessagesAnswer } from '../../src/protocol/api';
import { call, startTestServer, type TestServer, type TestUser } from '../support/server';
import { conversation, sent, users } from './messages-support';

/**
 * Our `Since` header (issue 24 "Go to date", docs/server.md): the page from the first message sent at or after
 * a time. Three days of a chat, each message an hour after the last, on a clock the test moves.
 */
const DAY = 86_400_000;
const HOUR = 3_600_000;
const start = Date.UTC(2026, 2, 1, 8); // 1 March 2026, 08:00 UTC
let s: TestServer;
let anna: TestUser;
let bo: TestUser;
let id: number;
const byDay: number[][] = [[], [], [], [], []];

beforeAll(async () => {
  const clock = new ManualClock(start);
  s = await startTestServer({}, { clock });
  [anna, bo] = (await users(s, 'Anna', 'Bo')) as [TestUser, TestUser];
  id = await conversation(s, { members: [anna.id, bo.id] });
  // 1 March: 4 messages; 2 March: none; 3 March: 3; 4 March: 2 (one hidden by Bo below).
  for (const [day, count] of [[0, 4], [2, 3], [3, 2]] as const) {
    for (let i = 0; i < count; i++) {
      clock.advance(start + day * DAY + i * HOUR - clock.now());
      byDay[day]!.push(await sent(s, i % 2 ? bo : anna, id, `day ${day + 1}, message ${i + 1}`));
    }
  }
});
afterAll(() => s.close());

const seconds = (ms: number) => String(Math.floor(ms / 1000));
const page = (headers: Record<string, string>, token = anna.token) =>
  call<MessagesAnswer>(s.url, 'GET', `/v2/conversations/${id}/messages`, { token, headers });
const pageIds = async (headers: Record<string, string>, token = anna.token) =>
  (await page(headers, token)).data.messages.map((m) => m.id);

describe('GET /v2/conversations/{id}/messages with Since', () => {
  it("starts at a day's first message, oldest first, as many as Message-Count", async () => {
    const midnight = Date.UTC(2026, 2, 3);
    expect(await pageIds({ Since: seconds(midnight), 'Message-Count': '2' })).toEqual(byDay[2]!.slice(0, 2));
    expect(await pageIds({ Since: seconds(midnight) })).toEqual([...byDay[2]!, ...byDay[3]!]);
  });

  it('goes on to the next day that has a message, and gives nothing after the last one', async () => {
    // 2 March had none: its page starts with 3 March's first.
    expect((await pageIds({ Since: seconds(Date.UTC(2026, 2, 2)), 'Message-Count': '1' }))[0]).toBe(byDay[2]![0]);
    // Within a day, from the first message at or after the time.
    expect(await pageIds({ Since: seconds(start + 2 * HOUR) })).toEqual([
      ...byDay[0]!.slice(2),
      ...byDay[2]!,
      ...byDay[3]!,
    ]);
    expect(await pageIds({ Since: seconds(Date.UTC(2026, 2, 5)) })).toEqual([]);
    expect((await pageIds({ Since: '0', 'Message-Count': '1' }))[0]).toBe(byDay[0]![0]);
  });

  it('leaves out what the reader hid, and starts at the next message they can see', async () => {
    const hidden = byDay[3]![0]!;
    const hide = await call(s.url, 'POST', `/v2/conversations/${id}/hide_messages`, {
      token: bo.token,
      json: { message_ids: [hidden] },
    });
    expect(hide.status).toBe(200);
    expect(await pageIds({ Since: seconds(Date.UTC(2026, 2, 4)) }, bo.token)).toEqual([byDay[3]![1]]);
    expect(await pageIds({ Since: seconds(Date.UTC(2026, 2, 4)) })).toEqual(byDay[3]);
  });

  it('refuses a bad Since by the number rule, and Since with Before or After, in the language asked for', async () => {
    for (const value of ['yesterday', '-3', '2.5', '1e3']) {
      const r = await page({ Since: value });
      expect(r.status, value).toBe(400);
      expect(r.body).toMatchObject({ status: 400, message: 'Since must be a whole number from 0 to 9007199254740991' });
    }
    const both = await page({ Since: '0', After: String(byDay[0]![0]) });
    expect(both.body).toMatchObject({ status: 400, message: 'Since cannot be used with Before or After' });
    const sv = await page({ Since: '0', Before: String(byDay[0]![0]), 'Accept-Language': 'sv' });
    expect(sv.body).toMatchObject({ status: 400, message: 'Since kan inte användas med Before eller After' });
  });
});
