import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEntry, SessionsAnswer } from '../../src/protocol/api';
import { SOCKET_CLOSE_SESSION_ENDED } from '../../src/protocol/constants';
import { ManualClock } from '../../server/clock';
import { ConfigError, configFromEnv } from '../../server/config';
import { openStore } from '../../server/db/open';
import { POSTGRES_MIGRATIONS } from '../../server/db/postgresSchema';
import { MIGRATIONS } from '../../server/db/schema';
import { sql } from '../../server/db/store';
import { deviceNames } from '../../server/domain/deviceLabel';
import { endSessions } from '../../server/domain/sessions';
import { hashToken, LAST_USED_STEP_MS, userForToken } from '../../server/http/auth';
import { testDatabaseUrl } from '../support/postgresSchema';
import { call, nextPhone, TEST_PIN, TestSocket, useTestServer } from '../support/server';

/**
 * Sessions that end (docs/server.md "Sessions"): logout deletes the token, tokens unused for SESSION_IDLE_DAYS
 * expire, and the account page lists the user's sessions and ends one or all others, closing their sockets.
 */

const clock = new ManualClock();
const DAY_MS = 24 * 60 * 60_000;
const s = useTestServer({ sessionIdleDays: 3 }, { clock });

const LINUX_CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/** Signs `phone` in once more (a new session), from a browser saying `userAgent`. */
async function signIn(phone: string, userAgent = LINUX_CHROME): Promise<string> {
  const headers = { 'User-Agent': userAgent };
  await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: phone }, headers }).then((r) => r.data);
  const confirm = await call<{ token: string }>(s.url, 'POST', '/v1/auth/pin/confirm', {
    form: { phone_nr: phone, pin: TEST_PIN },
    headers,
  });
  return confirm.data.token;
}

const meStatus = async (token: string) => (await call(s.url, 'GET', '/v1/me', { token })).status;
const sessions = async (token: string): Promise<SessionEntry[]> =>
  (await call<SessionsAnswer>(s.url, 'GET', '/v1/me/sessions', { token })).data.sessions;

describe('logout', () => {
  it('ends the token on the server: the old token answers 401 and its socket is closed', async () => {
    const phone = nextPhone();
    const token = await signIn(phone);
    const other = await signIn(phone);
    const socket = new TestSocket(s.url, token);
    await socket.loaded();
    expect(await meStatus(token)).toBe(200);

    const out = await call(s.url, 'POST', '/v1/auth/logout', { token });
    expect(out.body).toEqual({ success: true, data: { ended: 1 } });
    expect(await socket.closed).toBe(SOCKET_CLOSE_SESSION_ENDED);
    expect(await meStatus(token)).toBe(401);
    expect((await call(s.url, 'POST', '/v1/auth/logout', { token })).status).toBe(401);
    // The user's other session stays.
    expect(await meStatus(other)).toBe(200);
  });
});

describe('idle expiry', () => {
  it('refuses a token unused for SESSION_IDLE_DAYS and deletes its row; use keeps it alive', async () => {
    const phone = nextPhone();
    const used = await signIn(phone);
    const idle = await signIn(phone);
    clock.advance(2 * DAY_MS);
    expect(await meStatus(used)).toBe(200);
    clock.advance(DAY_MS + 60_000);
    // Three days and a minute since `idle` was used; one day and a minute for `used`.
    expect(await meStatus(idle)).toBe(401);
    expect(await meStatus(used)).toBe(200);
    const rows = await s.server.ctx.db.all<{ sid: string }>(
      sql`SELECT t.sid FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.phone_nr = ${phone}`,
    );
    expect(rows).toHaveLength(1);
    // Its socket cannot open either.
    const socket = new TestSocket(s.url, idle);
    expect(await socket.closed).not.toBe(1000);
    expect(socket.frames).toEqual([]);
  });

  it('writes the last use at most once a minute, and a sign-in prunes expired sessions of everyone', async () => {
    const phone = nextPhone();
    const token = await signIn(phone);
    const lastUsed = async () =>
      Number(
        (await s.server.ctx.db.get<{ at: number }>(
          sql`SELECT t.last_used_at AS at FROM tokens t JOIN users u ON u.id = t.user_id WHERE u.phone_nr = ${phone}`,
        ))?.at,
      );
    const signedInAt = clock.now();
    clock.advance(LAST_USED_STEP_MS - 1000);
    expect(await meStatus(token)).toBe(200);
    expect(await lastUsed()).toBe(signedInAt);
    clock.advance(1000);
    expect(await meStatus(token)).toBe(200);
    expect(await lastUsed()).toBe(clock.now());

    // Never used again: after the idle time, someone else's sign-in deletes it without it being asked for.
    clock.advance(3 * DAY_MS + 1);
    await signIn(nextPhone());
    expect(await lastUsed()).toBeNaN();
  });
});

describe('the sessions list', () => {
  it("lists the user's sessions with browser, system, times and the current one marked; never a token or hash", async () => {
    const phone = nextPhone();
    const laptop = await signIn(phone, LINUX_CHROME);
    clock.advance(5 * 60_000);
    const phoneToken = await signIn(phone, IPHONE_SAFARI);
    const list = await sessions(laptop);
    expect(list).toHaveLength(2);
    // The one asking comes first, whatever its last use.
    const [oldest, newest] = list as [SessionEntry, SessionEntry];
    expect(newest).toMatchObject({ browser: 'Safari', os: 'iOS', current: false, last_active_at: clock.now() });
    expect(oldest).toMatchObject({ browser: 'Chrome', os: 'Linux', current: true, created_at: clock.now() - 5 * 60_000 });
    expect(newest.id).toMatch(/^[0-9a-f]{24}$/);
    const text = JSON.stringify(list);
    const hashes = await s.server.ctx.db.all<{ hash: string }>(sql`SELECT hash FROM tokens`);
    for (const secret of [laptop, phoneToken, ...hashes.map((h) => h.hash)]) expect(text).not.toContain(secret);
    expect((await sessions(phoneToken)).map((e) => [e.id, e.current])).toEqual([
      [newest.id, true],
      [oldest.id, false],
    ]);
  });

  it('ends one session (its socket closed at once) and refuses another user\'s session id', async () => {
    const phone = nextPhone();
    const mine = await signIn(phone);
    const other = await signIn(phone);
    const otherSocket = new TestSocket(s.url, other);
    const mySocket = new TestSocket(s.url, mine);
    await Promise.all([otherSocket.loaded(), mySocket.loaded()]);
    const otherId = (await sessions(other)).find((e) => e.current)!.id;

    const stranger = await signIn(nextPhone());
    const refused = await call(s.url, 'DELETE', `/v1/me/sessions/${otherId}`, { token: stranger });
    expect(refused.body).toEqual({ success: false, status: 404, message: 'Session not found' });
    expect((await call(s.url, 'DELETE', '/v1/me/sessions/not-an-id', { token: stranger })).status).toBe(404);
    expect(await meStatus(other)).toBe(200);

    const ended = await call(s.url, 'DELETE', `/v1/me/sessions/${otherId}`, { token: mine });
    expect(ended.body).toEqual({ success: true, data: { ended: 1 } });
    expect(await otherSocket.closed).toBe(SOCKET_CLOSE_SESSION_ENDED);
    expect(await meStatus(other)).toBe(401);
    expect(await meStatus(mine)).toBe(200);
    expect(mySocket.ws.readyState).toBe(mySocket.ws.OPEN);
    expect((await call(s.url, 'DELETE', `/v1/me/sessions/${otherId}`, { token: mine })).status).toBe(404);
    mySocket.close();
  });

  it('ends all other sessions, closing their sockets, and keeps the one asking and other users\'', async () => {
    const phone = nextPhone();
    const mine = await signIn(phone);
    const others = [await signIn(phone), await signIn(phone, IPHONE_SAFARI)];
    const stranger = await signIn(nextPhone());
    const sockets = others.map((t) => new TestSocket(s.url, t));
    await Promise.all(sockets.map((socket) => socket.loaded()));

    const ended = await call(s.url, 'DELETE', '/v1/me/sessions/others', { token: mine });
    expect(ended.body).toEqual({ success: true, data: { ended: 2 } });
    expect(await Promise.all(sockets.map((socket) => socket.closed))).toEqual([SOCKET_CLOSE_SESSION_ENDED, SOCKET_CLOSE_SESSION_ENDED]);
    for (const token of others) expect(await meStatus(token)).toBe(401);
    expect(await meStatus(mine)).toBe(200);
    expect(await meStatus(stranger)).toBe(200);
    expect((await sessions(mine)).map((e) => e.current)).toEqual([true]);
  });

  it('endSessions (for operators\' tools) ends every session of one user', async () => {
    const phone = nextPhone();
    const tokens = [await signIn(phone), await signIn(phone)];
    const stranger = await signIn(nextPhone());
    const user = await s.server.ctx.db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${phone}`);
    expect(await endSessions(s.server.ctx.db, Number(user!.id))).toHaveLength(2);
    for (const token of tokens) expect(await meStatus(token)).toBe(401);
    expect(await meStatus(stranger)).toBe(200);
  });
});

describe('SESSION_IDLE_DAYS', () => {
  it('is 90 days unless set, and a whole number of at least 1', () => {
    expect(configFromEnv({}).sessionIdleDays).toBe(90);
    expect(configFromEnv({ SESSION_IDLE_DAYS: '7' }).sessionIdleDays).toBe(7);
    for (const bad of ['0', '-1', '1.5', 'soon']) expect(() => configFromEnv({ SESSION_IDLE_DAYS: bad })).toThrow(ConfigError);
  });
});

describe('device names', () => {
  it('names a few well-known browsers and systems, and nothing else of the header', () => {
    expect(deviceNames(LINUX_CHROME)).toEqual({ browser: 'Chrome', os: 'Linux' });
    expect(deviceNames(IPHONE_SAFARI)).toEqual({ browser: 'Safari', os: 'iOS' });
    expect(
      deviceNames('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0'),
    ).toEqual({ browser: 'Edge', os: 'Windows' });
    expect(deviceNames('Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:120.0) Gecko/20100101 Firefox/120.0')).toEqual({
      browser: 'Firefox',
      os: 'macOS',
    });
    expect(deviceNames('<img src=x onerror=alert(1)>')).toEqual({ browser: '', os: '' });
    expect(deviceNames(undefined)).toEqual({ browser: '', os: '' });
  });
});

describe('the upgrade', () => {
  it('gives the tokens of an older build an id of their own and counts them as used at the upgrade', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sessions-upgrade-'));
    try {
      const databaseUrl = await testDatabaseUrl(dataDir);
      const location = { dataDir, databaseUrl };
      // The build before: SQLite's first 9 migrations, PostgreSQL's first 7.
      const before = databaseUrl ? POSTGRES_MIGRATIONS.slice(0, 7) : MIGRATIONS.slice(0, 9);
      const old = (await openStore(location, before)).store;
      const long = Date.UTC(2020, 0, 1);
      for (const [n, token] of ['first-old-token', 'second-old-token'].entries()) {
        const { id } = (await old.get<{ id: number }>(
          sql`INSERT INTO users (stid, phone_nr, country_code, created_at) VALUES (${`u_old${n}xx`}, ${`+4670000000${n}`}, '46', ${long}) RETURNING id`,
        ))!;
        await old.run(sql`INSERT INTO tokens (hash, user_id, created_at) VALUES (${hashToken(token)}, ${id}, ${long})`);
      }
      await old.close();

      const upgraded = (await openStore(location)).store;
      try {
        const rows = await upgraded.all<{ sid: string; last_used_at: number; browser: string }>(
          sql`SELECT sid, last_used_at, browser FROM tokens ORDER BY sid`,
        );
        expect(rows).toHaveLength(2);
        expect(new Set(rows.map((r) => r.sid)).size).toBe(2);
        for (const row of rows) {
          expect(row.sid).toMatch(/^[0-9a-f]{24}$/);
          expect(Math.abs(Number(row.last_used_at) - Date.now())).toBeLessThan(10 * 60_000);
          expect(row.browser).toBe('');
        }
        // Signed in years ago, still good: idle is counted from the upgrade.
        const user = await userForToken(upgraded, 'first-old-token', { now: Date.now(), idleMs: 90 * DAY_MS });
        expect(user?.session).toMatch(/^[0-9a-f]{24}$/);
      } finally {
        await upgraded.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
