import { beforeAll, describe, expect, it } from 'vitest';
import { dbSnapshot } from '../support/dbSnapshot';
import { insertConversation } from '../support/fixtures';
import { call, upgradeStatus, useTestServer } from '../support/server';
import { type CommunityWorld, makeWorld, post } from './communities-support';
import { sent } from './messages-support';

/**
 * Issue 12: every number the server reads obeys one rule (server/http/numbers.ts, docs/server.md
 * "Numbers"): a whole number in its range, else a 400 that names the field, before anything reaches
 * the database. One block per place a number comes from: the path, the query, a header, the body.
 */

const s = useTestServer();
let w: CommunityWorld;
let group: number;
let groupStid: string;
let messageId: number;
let postId: number;

beforeAll(async () => {
  w = await makeWorld(s, 'numbers');
  ({ id: group, stid: groupStid } = await insertConversation(s.server.ctx.db, {
    members: [w.member.id, w.owner.id],
    admins: [w.member.id],
    isGroup: true,
    name: 'Numbers',
  }));
  messageId = await sent(s, w.member, group, 'Hello');
  postId = await post(s, w.owner.token, w.general.id, 'A post');
});

const MAX = Number.MAX_SAFE_INTEGER;
const ids = `1 to ${MAX}`;
const refusal = (message: string) => ({ success: false, status: 400, message });
const rule = (field: string, range: string) => refusal(`${field} must be a whole number from ${range}`);

/** What is not a whole number, as text: for paths, queries, headers and forms. */
const NOT_NUMBERS = [
  ...['Infinity', '-Infinity', '1e999', 'NaN', '1.5', '-1', '9007199254740993'],
  ...['12abc', '0x10', '1e3', '+5', '05'],
];

describe('numbers in the path', () => {
  it('refuses every id that is not a whole number from 1 with the route’s own text', async () => {
    const t = { token: w.member.token };
    for (const bad of [...NOT_NUMBERS, '0', ' 5']) {
      const segment = encodeURIComponent(bad);
      const cases: [string, string, string, object][] = [
        ['GET', `/v2/conversations/${segment}`, 'Invalid conversation ID provided', {}],
        ['DELETE', `/v1/conversations/${group}/users/${segment}`, 'Invalid user ID provided', {}],
        [
          'POST',
          `/v1/conversations/${group}/messages/${segment}`,
          'Invalid message ID provided',
          { form: { read: 'true' } },
        ],
        ['GET', `/v1/channels/${segment}`, 'Invalid parameters provided', {}],
        ['POST', `/v1/communities/${segment}/join`, 'Invalid parameters provided', {}],
      ];
      for (const [method, path, message, extra] of cases) {
        const r = await call(s.url, method, path, { ...t, ...extra });
        expect([method, path, r.body]).toEqual([method, path, refusal(message)]);
      }
    }
  });

  it('takes the largest id and a stid', async () => {
    const t = { token: w.member.token };
    expect((await call(s.url, 'GET', `/v2/conversations/${MAX}`, t)).body).toMatchObject({ status: 404 });
    expect((await call(s.url, 'GET', `/v1/channels/${MAX}`, t)).body).toMatchObject({ status: 404 });
    expect((await call(s.url, 'GET', `/v2/conversations/${groupStid}`, t)).status).toBe(200);
    expect((await call(s.url, 'GET', `/v2/conversations/${group}`, t)).status).toBe(200);
  });
});

describe('numbers in the query', () => {
  it('refuses limit, before, after and around that are not whole numbers in range, naming them', async () => {
    const t = { token: w.member.token };
    const posts = `/v1/channels/${w.general.id}/posts`;
    const comments = `/v1/channels/${w.general.id}/post_comments?post_id=${postId}&`;
    for (const bad of [...NOT_NUMBERS, '0', '', ' 5']) {
      const value = encodeURIComponent(bad);
      for (const base of [`${posts}?`, comments]) {
        expect((await call(s.url, 'GET', `${base}limit=${value}`, t)).body).toEqual(rule('limit', '1 to 100'));
        for (const anchor of ['before', 'after', 'around']) {
          expect((await call(s.url, 'GET', `${base}${anchor}=${value}`, t)).body).toEqual(rule(anchor, ids));
        }
      }
      const commentsOf = `/v1/channels/${w.general.id}/post_comments?post_id=${value}`;
      expect((await call(s.url, 'GET', commentsOf, t)).body).toEqual(rule('post_id', ids));
    }
    // A field given twice is a list, not a number.
    expect((await call(s.url, 'GET', `${posts}?limit=1&limit=2`, t)).body).toEqual(rule('limit', '1 to 100'));
  });

  it('answers 400, not 500, for the values that reached SQLite before (issue 12)', async () => {
    const t = { token: w.member.token };
    for (const value of ['Infinity', '-Infinity', '1e999']) {
      const paths = [`/v1/channels/${w.general.id}/posts?`, `/v1/channels/${w.general.id}/post_comments?post_id=${postId}&`];
      for (const path of paths) {
        expect((await call(s.url, 'GET', `${path}limit=${value}`, t)).status).toBe(400);
      }
    }
  });

  it('takes the edges of each range', async () => {
    const t = { token: w.member.token };
    const posts = `/v1/channels/${w.general.id}/posts`;
    for (const query of ['limit=1', 'limit=100', `before=${MAX}`, `after=${MAX}`, `around=${MAX}`, 'before=1']) {
      expect([query, (await call(s.url, 'GET', `${posts}?${query}`, t)).status]).toEqual([query, 200]);
    }
    const latest = await call<{ posts: unknown[] }>(s.url, 'GET', `${posts}?limit=1&before=${MAX}`, t);
    expect(latest.data.posts).toHaveLength(1);
  });
});

describe('numbers in headers', () => {
  it('refuses Message-Count and Before that are not whole numbers in range, naming them', async () => {
    const t = { token: w.member.token };
    for (const bad of [...NOT_NUMBERS, '', '5, 6']) {
      const count = { 'Message-Count': bad };
      expect((await call(s.url, 'GET', '/v2/conversations', { ...t, headers: count })).body).toEqual(
        rule('Message-Count', '0 to 50'),
      );
      expect((await call(s.url, 'GET', `/v2/conversations/${group}`, { ...t, headers: count })).body).toEqual(
        rule('Message-Count', '0 to 100'),
      );
      expect((await call(s.url, 'GET', `/v2/conversations/${group}/messages`, { ...t, headers: count })).body).toEqual(
        rule('Message-Count', '1 to 100'),
      );
      const before = { Before: bad };
      expect((await call(s.url, 'GET', `/v2/conversations/${group}/messages`, { ...t, headers: before })).body).toEqual(
        rule('Before', ids),
      );
    }
    const zero = await call(s.url, 'GET', `/v2/conversations/${group}/messages`, { ...t, headers: { Before: '0' } });
    expect(zero.body).toEqual(rule('Before', ids));
  });

  it('takes the edges of each range', async () => {
    const t = { token: w.member.token };
    const list = await call(s.url, 'GET', '/v2/conversations', { ...t, headers: { 'Message-Count': '50' } });
    expect(list.status).toBe(200);
    const page = await call<{ messages: { id: number }[] }>(s.url, 'GET', `/v2/conversations/${group}/messages`, {
      ...t,
      headers: { 'Message-Count': '100', Before: String(MAX) },
    });
    expect(page.data.messages.map((m) => m.id)).toEqual([messageId]);
    const none = await call(s.url, 'GET', `/v2/conversations/${group}`, { ...t, headers: { 'Message-Count': '0' } });
    expect(none.status).toBe(200);
  });
});

describe('numbers in bodies', () => {
  /** JSON texts that are not whole numbers: `1e999` parses to Infinity, 9007199254740993 to an inexact number. */
  const NOT_JSON_NUMBERS = [
    '1e999',
    '-1e999',
    '1.5',
    '-1',
    '9007199254740993',
    '"Infinity"',
    '"NaN"',
    '""',
    '"12abc"',
    '"1e3"',
    '[1]',
    '{"a":1}',
    'true',
  ];
  const json = (fields: string) => ({ body: `{${fields}}`, headers: { 'Content-Type': 'application/json' } });

  it('refuses JSON numbers that are not whole numbers in range, names the field and stores nothing', async () => {
    const t = { token: w.member.token };
    const before = await dbSnapshot(s.server.ctx.db);
    const cases: [string, string, (v: string) => string, string][] = [
      ['POST', `/v2/conversations/${group}/messages`, (v) => `"message":"x","client_id":${v}`, 'client_id'],
      [
        'POST',
        `/v2/conversations/${group}/messages`,
        (v) => `"message":"x","client_id":1,"quoted_message_id":${v}`,
        'quoted_message_id',
      ],
      ['POST', `/v2/conversations/${group}/edit_message`, (v) => `"id":${v},"text":"y"`, 'id'],
      ['POST', `/v2/conversations/${group}/delete/messages`, (v) => `"message_ids":[${messageId},${v}]`, 'message_ids.1'],
      ['POST', `/v2/conversations/${group}/hide_messages`, (v) => `"message_ids":[${v}]`, 'message_ids.0'],
      ['PUT', `/v2/conversations/${group}`, (v) => `"image_id":${v}`, 'image_id'],
      ['PUT', '/v1/me', (v) => `"image_id":${v}`, 'image_id'],
      [
        'POST',
        `/v2/conversations/${group}/delivery_settings`,
        (v) => `"mode":"smart","smart_mode_options":{"interval_minutes":${v}}`,
        'smart_mode_options.interval_minutes',
      ],
      ['POST', `/v1/channels/${w.general.id}/post_comments`, (v) => `"post_id":${v},"message":"x"`, 'post_id'],
      [
        'POST',
        `/v1/channels/${w.general.id}/add_comment_reaction`,
        (v) => `"post_id":${postId},"comment_id":${v},"reaction":"👍"`,
        'comment_id',
      ],
    ];
    const ranges: Record<string, string> = {
      client_id: '1 to 10000',
      image_id: `0 to ${MAX}`,
      'smart_mode_options.interval_minutes': '1 to 1440',
    };
    for (const [method, path, body, field] of cases) {
      // 0 is an image_id ("no picture"); null a quoted_message_id ("no quote").
      const values = [
        ...NOT_JSON_NUMBERS,
        ...(field === 'image_id' ? [] : ['0']),
        ...(field === 'quoted_message_id' ? [] : ['null']),
      ];
      for (const value of values) {
        const r = await call(s.url, method, path, { ...t, ...json(body(value)) });
        expect([path, value, r.body]).toEqual([path, value, rule(field, ranges[field] ?? ids)]);
      }
    }
    expect(await dbSnapshot(s.server.ctx.db)).toEqual(before);
  });

  it('refuses form numbers that are not whole numbers, lists and objects alike', async () => {
    const t = { token: w.member.token };
    const before = await dbSnapshot(s.server.ctx.db);
    const form = (body: string) => ({ body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    for (const bad of [...NOT_NUMBERS, '']) {
      const body = `image_id=${encodeURIComponent(bad)}`;
      expect((await call(s.url, 'PUT', '/v1/me', { ...t, ...form(body) })).body).toEqual(rule('image_id', `0 to ${MAX}`));
      expect((await call(s.url, 'PUT', `/v2/conversations/${group}`, { ...t, ...form(body) })).body).toEqual(
        rule('image_id', `0 to ${MAX}`),
      );
    }
    for (const body of ['image_id[]=1', 'image_id[a]=1', 'image_id[]=1&image_id[]=2']) {
      expect((await call(s.url, 'PUT', '/v1/me', { ...t, ...form(body) })).body).toEqual(rule('image_id', `0 to ${MAX}`));
    }
    expect(await dbSnapshot(s.server.ctx.db)).toEqual(before);
  });

  it('takes the edges of each range', async () => {
    const t = { token: w.member.token };
    const send = (clientId: number) =>
      call(s.url, 'POST', `/v2/conversations/${group}/messages`, {
        ...t,
        json: { message: `edge ${clientId}`, client_id: clientId },
      });
    expect((await send(1)).status).toBe(201);
    expect((await send(10_000)).status).toBe(201);
    const asText = await call(s.url, 'POST', `/v2/conversations/${group}/messages`, {
      ...t,
      json: { message: 'as text', client_id: '42', quoted_message_id: null },
    });
    expect(asText.status).toBe(201);
    expect((await call(s.url, 'PUT', '/v1/me', { ...t, form: { image_id: '0' } })).status).toBe(200);
    const smart = await call(s.url, 'POST', `/v2/conversations/${group}/delivery_settings`, {
      ...t,
      json: { mode: 'smart', smart_mode_options: { interval_minutes: 1440 } },
    });
    expect(smart.body).toMatchObject({ success: true, data: { delivery_settings: { mode: 'smart' } } });
    const hide = { ...t, json: { message_ids: [MAX] } };
    const unknown = await call(s.url, 'POST', `/v2/conversations/${group}/hide_messages`, hide);
    expect(unknown.status).toBe(404);
  });
});

describe('the number rule’s texts', () => {
  it('names the field in Swedish too', async () => {
    const r = await call(s.url, 'GET', `/v1/channels/${w.general.id}/posts?limit=0`, {
      token: w.member.token,
      headers: { 'Accept-Language': 'sv' },
    });
    expect(r.body).toEqual(refusal('limit måste vara ett heltal från 1 till 100'));
    const header = await call(s.url, 'GET', '/v2/conversations', {
      token: w.member.token,
      headers: { 'Accept-Language': 'sv', 'Message-Count': 'Infinity' },
    });
    expect(header.body).toEqual(refusal('Message-Count måste vara ett heltal från 0 till 50'));
  });
});

describe('numbers of the websocket', () => {
  /** The status the upgrade is answered with: 101 when the socket opens. */
  const upgrade = (query: string) =>
    upgradeStatus(`${s.url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(w.member.token)}&${query}`);

  it('refuses a last_message_id that is not a whole number from 0', async () => {
    for (const bad of [...NOT_NUMBERS, '']) {
      expect([bad, await upgrade(`last_message_id=${encodeURIComponent(bad)}`)]).toEqual([bad, 400]);
    }
    expect(await upgrade(`last_message_id=${MAX}`)).toBe(101);
    expect(await upgrade('last_message_id=0')).toBe(101);
  });
});
