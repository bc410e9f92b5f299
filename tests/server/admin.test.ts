import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type AdminIo, EXIT_ERROR, EXIT_OK, EXIT_USAGE } from '../../server/admin/command';
import { runAdmin } from '../../server/admin/cli';
import { sql } from '../../server/db/store';
import { DEMO_BOT, DEMO_USERS } from '../../server/seed/demoUsers';
import { TEST_PIN, type TestServer, call, signUp, useTestServer } from '../support/server';
import { testDatabaseUrl } from '../support/postgresSchema';

/** docs/server.md "Admin tool": the operator's command line, on the running server's own store. */

async function admin(s: Pick<TestServer, 'dataDir'>, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const databaseUrl = await testDatabaseUrl(s.dataDir);
  const io: AdminIo = {
    env: { DATA_DIR: s.dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  };
  const code = await runAdmin(argv, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function signIn(base: string, phone: string): Promise<{ status: number; code?: string | undefined; token?: string }> {
  const asked = await call(base, 'POST', '/v1/auth/pin', { form: { phone_nr: phone } });
  if (!asked.body.success) return { status: asked.status, code: asked.body.code };
  const confirmed = await call<{ token: string }>(base, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: phone, pin: TEST_PIN } });
  if (!confirmed.body.success) return { status: confirmed.status, code: confirmed.body.code };
  return { status: confirmed.status, token: confirmed.body.data.token };
}

describe('npm run admin: usage', () => {
  const s = useTestServer();

  it('answers --help with 0, no or a wrong command with 2, and a failure with 1 and one line', async () => {
    const help = await admin(s, '--help');
    expect(help.code).toBe(EXIT_OK);
    expect(help.out).toContain('users deactivate <number>');
    expect(help.out).toContain('demo remove [--yes]');
    expect((await admin(s, 'users', '--help')).out).toContain('end-sessions <number>');
    expect((await admin(s, 'demo', 'remove', '--help')).out).toContain('Without --yes');
    expect((await admin(s)).code).toBe(EXIT_USAGE);
    expect((await admin(s, 'frobnicate')).code).toBe(EXIT_USAGE);
    const missing = await admin(s, 'users', 'deactivate');
    expect(missing.code).toBe(EXIT_USAGE);
    expect(missing.err).toContain('takes one phone number');
    expect((await admin(s, 'demo', 'remove', '--force')).code).toBe(EXIT_USAGE);
    const nobody = await admin(s, 'users', 'find', '+46709999999');
    expect(nobody.code).toBe(EXIT_ERROR);
    expect(nobody.err).toBe('No user has the number +46709999999');

    // A mistyped DATA_DIR (or DATABASE_URL) is said so, and gets no new database.
    const elsewhere = mkdtempSync(path.join(tmpdir(), 'messenger-admin-'));
    try {
      const wrong = await admin({ dataDir: elsewhere }, 'users', 'find', '+46709999999');
      expect(wrong.code).toBe(EXIT_ERROR);
      expect(wrong.err).toMatch(/^(There is no database in .*|The PostgreSQL database of DATABASE_URL has no messenger tables) \(is (DATA_DIR|DATABASE_URL) right\?\)$/);
      expect(existsSync(path.join(elsewhere, 'messenger.db'))).toBe(false);
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('npm run admin: users', () => {
  const s = useTestServer();

  it('finds a user by the number written as in the app', async () => {
    const user = await signUp(s.url, 'Findme');
    const local = `00${user.phone.slice(1, 3)} ${user.phone.slice(3, 5)}-${user.phone.slice(5)}`;
    const found = await admin(s, 'users', 'find', local);
    expect(found.code).toBe(EXIT_OK);
    expect(found.out).toContain(user.phone);
    expect(found.out).toContain('Findme');
    expect(found.out).toMatch(/sessions\s+1/);
    expect(found.out).toMatch(/state\s+active/);
  });

  it('deactivates: tokens end, a PIN request and a PIN issued before are refused (account_deactivated), in English and Swedish; reactivates', async () => {
    const user = await signUp(s.url, 'Leaving');
    // A PIN asked for before the deactivation must not sign in after it.
    await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: user.phone } }).then((r) => r.data);
    expect((await call(s.url, 'GET', '/v1/me', { token: user.token })).status).toBe(200);

    const done = await admin(s, 'users', 'deactivate', user.phone);
    expect(done.code).toBe(EXIT_OK);
    expect(done.out).toContain('1 session(s) ended');
    expect((await call(s.url, 'GET', '/v1/me', { token: user.token })).status).toBe(401);
    const confirm = await call(s.url, 'POST', '/v1/auth/pin/confirm', { form: { phone_nr: user.phone, pin: TEST_PIN } });
    expect(confirm.status).toBe(403);
    expect(confirm.body).toMatchObject({ code: 'account_deactivated', message: 'This account has been deactivated.' });
    const sv = await call(s.url, 'POST', '/v1/auth/pin', { form: { phone_nr: user.phone }, headers: { 'Accept-Language': 'sv' } });
    expect(sv.status).toBe(403);
    expect(sv.body).toMatchObject({ code: 'account_deactivated', message: 'Det här kontot har inaktiverats.' });
    expect((await admin(s, 'users', 'find', user.phone)).out).toMatch(/state\s+deactivated \d{4}-/);
    const again = await admin(s, 'users', 'deactivate', user.phone);
    expect(again.code).toBe(EXIT_ERROR);
    expect(again.err).toContain('is already deactivated');

    expect((await admin(s, 'users', 'reactivate', user.phone)).code).toBe(EXIT_OK);
    const back = await signIn(s.url, user.phone);
    expect(back.status).toBe(200);
    const me = await call<{ account: { id: number } }>(s.url, 'GET', '/v1/me', { token: back.token as string });
    expect(me.data.account.id).toBe(user.id);
  });

  it('ends every session of a user, who may sign in again', async () => {
    const user = await signUp(s.url, 'Twice');
    const second = await signIn(s.url, user.phone);
    const ended = await admin(s, 'users', 'end-sessions', user.phone);
    expect(ended.code).toBe(EXIT_OK);
    expect(ended.out).toContain('Ended 2 session(s)');
    expect((await call(s.url, 'GET', '/v1/me', { token: user.token })).status).toBe(401);
    expect((await call(s.url, 'GET', '/v1/me', { token: second.token as string })).status).toBe(401);
    expect((await signIn(s.url, user.phone)).status).toBe(200);
  });
});

describe('npm run admin: demo remove', () => {
  const s = useTestServer({ seedDemo: true });

  it('removes exactly the demo users and what only they had; a real user keeps the chat a demo user shared, with their own messages', async () => {
    const anna = await signIn(s.url, DEMO_USERS[0].phone);
    const real = await signUp(s.url, 'Real');
    const other = await signUp(s.url, 'Other');
    const form = (phone: string) => ({ 'member[0][type]': 'phone_nr', 'member[0][value]': phone });
    const shared = (await call<{ conversation: { id: number } }>(s.url, 'POST', '/v2/conversations', { token: anna.token as string, form: form(real.phone) })).data.conversation.id;
    await call(s.url, 'POST', `/v2/conversations/${shared}/messages`, { token: anna.token as string, json: { client_id: 1, message: 'from the demo' } }).then((r) => r.data);
    await call(s.url, 'POST', `/v2/conversations/${shared}/messages`, { token: real.token, json: { client_id: 2, message: 'from a real user' } }).then((r) => r.data);
    const realOnly = (await call<{ conversation: { id: number } }>(s.url, 'POST', '/v2/conversations', { token: real.token, form: form(other.phone) })).data.conversation.id;
    await call(s.url, 'POST', `/v2/conversations/${realOnly}/messages`, { token: real.token, json: { client_id: 3, message: 'between real users' } }).then((r) => r.data);

    const db = s.server.ctx.db;
    const count = async (table: string) => Number((await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM ${sql.table(table)}`))?.n);
    const before = { users: await count('users'), conversations: await count('conversations'), messages: await count('messages') };

    const dry = await admin(s, 'demo', 'remove');
    expect(dry.code).toBe(EXIT_OK);
    expect(dry.out).toContain(`Would remove ${DEMO_USERS.length + 1} users`);
    expect({ users: await count('users'), conversations: await count('conversations'), messages: await count('messages') }).toEqual(before);

    const removed = await admin(s, 'demo', 'remove', '--yes');
    expect(removed.code).toBe(EXIT_OK);
    expect(removed.out).toContain(`Removed the demo world: ${DEMO_USERS.length + 1} users`);
    const phones: string[] = [...DEMO_USERS.map((u) => u.phone), DEMO_BOT.phone];
    const left = await db.all<{ phone_nr: string }>(sql`SELECT phone_nr FROM users ORDER BY id`);
    expect(left.map((u) => u.phone_nr).sort()).toEqual([real.phone, other.phone].sort());
    expect(left.some((u) => phones.includes(u.phone_nr))).toBe(false);
    expect(await count('communities')).toBe(0);
    // Only the two real users' chats are left: the shared one (without Anna) and their own.
    const chats = (await call<{ conversations: { conversation: { id: number } }[] }>(s.url, 'GET', '/v2/conversations', { token: real.token })).data.conversations;
    expect(chats.map((c) => c.conversation.id).sort()).toEqual([shared, realOnly].sort());
    expect(await count('conversations')).toBe(2);
    const history = async (id: number) =>
      (await call<{ messages: { message: string }[] }>(s.url, 'GET', `/v2/conversations/${id}/messages`, { token: real.token })).data.messages.map((m) => m.message);
    expect(await history(shared)).toEqual(['from a real user']);
    expect(await history(realOnly)).toEqual(['between real users']);
    expect((await call(s.url, 'GET', '/v1/me', { token: anna.token as string })).status).toBe(401);

    const twice = await admin(s, 'demo', 'remove', '--yes');
    expect(twice.code).toBe(EXIT_OK);
    expect(twice.out).toContain('There is no demo world here');
  });
});
