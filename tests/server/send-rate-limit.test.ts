import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock';
import { configFromEnv } from '../../server/config';
import { sql } from '../../server/db/store';
import { SEND_RATE_MESSAGE, SEND_ROUTES } from '../../server/http/sendRateLimit';
import { insertConversation } from '../support/fixtures';
import { call, useTestServer, useUsers } from '../support/server';

/**
 * Issue 12: a user flooding sends (messages, posts, comments, reactions) gets 429 with Retry-After past the
 * rate (SEND_RATE_LIMIT sends at once, coming back at that many per SEND_RATE_WINDOW_MS); others are not
 * touched, and nothing refused is stored.
 */

const clock = new ManualClock();
// Four in hand, one back every second.
const s = useTestServer({ sendRateLimit: 4, sendRateWindowMs: 4_000 }, { clock });
const [anna, bo] = useUsers(s, 'Anna', 'Bo');

const chat = () => insertConversation(s.server.ctx.db, { members: [anna.id, bo.id] });
let clientId = 0;
const send = (token: string, conversationId: number, text: string, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/v2/conversations/${conversationId}/messages`, {
    method: 'POST',
    headers: { 'Auth-Token': token, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ client_id: ++clientId, message: text }),
  });
const stored = async (conversationId: number) =>
  (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM messages WHERE conversation_id = ${conversationId}`))!.n;
/** A full bucket for everybody. */
const rested = () => clock.advance(60_000);

describe('the send rate limit', () => {
  it('answers the send past the rate 429 with Retry-After, stores nothing of it, and lets sends through as the rate comes back', async () => {
    rested();
    const { id } = await chat();
    for (let i = 1; i <= 4; i++) expect((await send(anna.token, id, `m${i}`)).status).toBe(201);
    const refused = await send(anna.token, id, 'm5');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({
      success: false,
      status: 429,
      message: SEND_RATE_MESSAGE,
      code: 'send_rate_limited',
      retry_after: 1,
    });
    const swedish = await send(anna.token, id, 'm5', { 'Accept-Language': 'sv' });
    expect(await swedish.json()).toMatchObject({ status: 429, message: 'Du skickar för snabbt. Vänta en stund.' });
    expect(await stored(id)).toBe(4);

    // Another user has a bucket of their own.
    expect((await send(bo.token, id, 'from Bo')).status).toBe(201);

    clock.advance(999);
    expect((await send(anna.token, id, 'm5')).status).toBe(429);
    clock.advance(1);
    expect((await send(anna.token, id, 'm5')).status).toBe(201);
    expect((await send(anna.token, id, 'm6')).status).toBe(429);
    // A user who keeps trying gets no further: only time gives sends back.
    clock.advance(3_000);
    for (const text of ['m6', 'm7', 'm8']) expect((await send(anna.token, id, text)).status).toBe(201);
    expect((await send(anna.token, id, 'm9')).status).toBe(429);
    expect(await stored(id)).toBe(4 + 1 + 1 + 3);
  });

  it('counts every send call: messages, comments, posts and reactions, added or taken back', async () => {
    const { id } = await chat();
    const calls: Record<string, string> = {
      'POST /v2/conversations/:id/messages': `/v2/conversations/${id}/messages`,
      'POST /v2/conversations/:id/messages/:msgId/reactions': `/v2/conversations/${id}/messages/1/reactions`,
      'DELETE /v2/conversations/:id/messages/:msgId/reactions': `/v2/conversations/${id}/messages/1/reactions`,
      'POST /v1/channels/:id/posts': `/v1/channels/${id}/posts`,
      'POST /v1/channels/:id/post_comments': `/v1/channels/${id}/post_comments`,
      'POST /v1/channels/:id/add_post_reaction': `/v1/channels/${id}/add_post_reaction`,
      'POST /v1/channels/:id/delete_post_reaction': `/v1/channels/${id}/delete_post_reaction`,
      'POST /v1/channels/:id/add_comment_reaction': `/v1/channels/${id}/add_comment_reaction`,
      'POST /v1/channels/:id/delete_comment_reaction': `/v1/channels/${id}/delete_comment_reaction`,
    };
    expect(Object.keys(calls).sort()).toEqual([...SEND_ROUTES].sort());
    for (const [route, url] of Object.entries(calls)) {
      const [method] = route.split(' ') as [string];
      // Each entry names a route the server has: renaming one cannot quietly lift its limit.
      expect(s.server.app.hasRoute({ method: method as 'POST', url: route.slice(method.length + 1) })).toBe(true);
      rested();
      for (let i = 0; i < 4; i++) expect((await send(anna.token, id, `fill ${route} ${i}`)).status).toBe(201);
      const answer = await call(s.url, method, url, { token: anna.token, json: { message: 'x', post_id: 1, reaction: '👍' } });
      expect([route, answer.status]).toEqual([route, 429]);
    }
  });

  it('leaves reading, receipts, edits and deletes alone', async () => {
    rested();
    const { id } = await chat();
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await call<{ message: { id: number } }>(s.url, 'POST', `/v2/conversations/${id}/messages`, {
        token: bo.token,
        json: { client_id: 1000 + i, message: `b${i}` },
      });
      ids.push(answer.data.message.id);
    }
    for (let i = 0; i < 4; i++) expect((await send(anna.token, id, `a${i}`)).status).toBe(201);
    expect((await send(anna.token, id, 'too many')).status).toBe(429);
    const answers = await Promise.all([
      call(s.url, 'GET', `/v2/conversations/${id}/messages`, { token: anna.token }),
      call(s.url, 'GET', '/v2/conversations', { token: anna.token }),
      call(s.url, 'POST', `/v1/conversations/${id}/messages/${ids[0]}`, { token: anna.token, form: { read: 'true' } }),
      call(s.url, 'POST', `/v2/conversations/${id}/hide_messages`, { token: anna.token, json: { message_ids: [ids[1]] } }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  it('is configured by SEND_RATE_LIMIT and SEND_RATE_WINDOW_MS (60 a minute by default; 0 turns it off)', () => {
    expect(configFromEnv({})).toMatchObject({ sendRateLimit: 60, sendRateWindowMs: 60_000 });
    expect(configFromEnv({ SEND_RATE_LIMIT: '10', SEND_RATE_WINDOW_MS: '5000' })).toMatchObject({
      sendRateLimit: 10,
      sendRateWindowMs: 5_000,
    });
    expect(() => configFromEnv({ SEND_RATE_LIMIT: 'lots' })).toThrow(/SEND_RATE_LIMIT/);
  });
});
