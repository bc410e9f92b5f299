import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sql } from '../../server/db/store';
import { listenOnLoopback } from '../support/loopback';
import { call, signUp, upgradeStatus, useTestServer } from '../support/server';
import { CLIENT_DIR, createChat, openTab, signInThrough, useChromium } from '../support/tabs';
import { record } from './tally';

/**
 * The "attacks tried / let in" of the fault table (issue 12): a handful of the hardening tests' attacks
 * replayed against the real server the fault tests use, with a signed-in user's valid token in the
 * attacker's hands. Foreign origins open the websocket (from Node, and from a page of another site in
 * real Chromium, whose browser names its origin itself) and read the API from that page; hostile numbers
 * go into a send. Let in: a socket opened, an answer a foreign page could read, a 2xx or 5xx to a hostile
 * number, or any message stored. The fuzz tests (`tests/server/fuzz-*.test.ts`) search far wider.
 */

const s = useTestServer({ clientDir: CLIENT_DIR });
const chromium = useChromium();
/** A page of another site: another loopback port is another origin. */
let foreign: { url: string; close(): Promise<void> };
beforeAll(async () => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<!doctype html><title>another site</title>');
  });
  const port = await listenOnLoopback(server);
  foreign = { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(() => foreign.close());

/** A number no route may take for client_id (1 to 10000), as raw JSON. */
const HOSTILE_CLIENT_IDS = ['-1', '0', '1.5', '10001', '1e999', '9007199254740993', '"12abc"', '"0x10"', 'null', '[1]', '{"a":1}', 'true'];
const HOSTILE_IDS = ['0', '-1', '1.5', '1e3', '0x10', '9007199254740993', 'Infinity', 'NaN'];

it('lets none of the replayed attacks in', async () => {
  const page = await openTab(await chromium.context(), s.url);
  const friend = await signUp(s.url, 'Friend');
  await signInThrough(page, 'Target');
  const conversationId = await createChat(page, 'Friend', friend.phone);
  const token = friend.token;
  const socketUrl = `${s.url.replace(/^http/, 'ws')}/ws?token=${encodeURIComponent(token)}&last_message_id=0&protocol=7&deviceType=webclient`;
  const stored = async () => (await s.server.ctx.db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM messages`))!.n;
  const storedBefore = await stored();
  const outcomes: { attack: string; letIn: boolean }[] = [];

  for (const origin of ['https://evil.example', `http://127.0.0.1:1`, 'null', 'chrome-extension://abcdef', foreign.url]) {
    const status = await upgradeStatus(socketUrl, { Origin: origin });
    outcomes.push({ attack: `websocket from ${origin}: ${status}`, letIn: status === 101 });
  }

  // Real Chromium on another site, holding the token: the socket, a read of the API, a form post.
  const attacker = await (await chromium.context()).newPage();
  await attacker.goto(foreign.url);
  const fromPage = await attacker.evaluate(
    async ([api, ws, id]) => {
      const opened = await new Promise<boolean>((resolve) => {
        const socket = new WebSocket(ws);
        socket.onopen = () => {
          socket.close();
          resolve(true);
        };
        socket.onerror = () => resolve(false);
        socket.onclose = () => resolve(false);
      });
      const read = await fetch(`${api}/v2/conversations`, { headers: { 'Auth-Token': ws.split('token=')[1]?.split('&')[0] ?? '' } })
        .then((r) => r.text())
        .then(
          (text) => text.length > 0,
          () => false,
        );
      // A simple cross-site request (no preflight) needs no header of ours: the token cannot ride along.
      await fetch(`${api}/v2/conversations/${id}/messages`, {
        method: 'POST',
        mode: 'no-cors',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'message=forged&client_id=1',
      }).catch(() => undefined);
      return { opened, read };
    },
    [s.url, socketUrl, conversationId] as const,
  );
  outcomes.push({ attack: 'websocket from a page of another site', letIn: fromPage.opened });
  outcomes.push({ attack: 'API read from a page of another site', letIn: fromPage.read });
  outcomes.push({ attack: 'form post from a page of another site', letIn: (await stored()) !== storedBefore });

  for (const value of HOSTILE_CLIENT_IDS) {
    const { status } = await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
      token,
      body: `{"message":"hostile","client_id":${value}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    outcomes.push({ attack: `client_id ${value}: ${status}`, letIn: status < 400 || status >= 500 });
  }
  for (const value of HOSTILE_IDS) {
    const { status } = await call(s.url, 'POST', `/v2/conversations/${encodeURIComponent(value)}/messages`, {
      token,
      json: { message: 'hostile', client_id: 1 },
    });
    outcomes.push({ attack: `conversation id ${value}: ${status}`, letIn: status < 400 || status >= 500 });
    const page = await call(s.url, 'GET', `/v2/conversations/${conversationId}/messages`, { token, headers: { Before: value } });
    outcomes.push({ attack: `Before ${value}: ${page.status}`, letIn: page.status < 400 || page.status >= 500 });
  }
  outcomes.push({ attack: 'a message stored by any of them', letIn: (await stored()) !== storedBefore });

  // Controls: what the attacks were refused is open to the right origin and the right input.
  expect(await upgradeStatus(socketUrl, { Origin: s.url })).toBe(101);
  const ownRead = await page.evaluate(
    async ([api, t]) => (await fetch(`${api}/v2/conversations`, { headers: { 'Auth-Token': t } })).ok,
    [s.url, token] as const,
  );
  expect(ownRead).toBe(true);
  const valid = await call(s.url, 'POST', `/v2/conversations/${conversationId}/messages`, {
    token,
    body: '{"message":"fine","client_id":1}',
    headers: { 'Content-Type': 'application/json' },
  });
  expect(valid.status).toBe(201);

  const letIn = outcomes.filter((o) => o.letIn);
  record({ scenario: 'attacks replayed on the real server', faults: 0, sent: 0, lost: 0, duplicated: 0, attacks: outcomes.length, letIn: letIn.length });
  expect(letIn.map((o) => o.attack)).toEqual([]);
});
