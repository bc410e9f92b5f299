import { type Store, sql } from '../db/store';
import { normalizePhone } from '../domain/countries';
import { type AdminIo, AdminError, UsageError, withStore } from './command';

export const USERS_HELP = `npm run admin -- users <command> <number>

  find <number>          Shows the user with this phone number: id, nickname, sessions, chats, state
  deactivate <number>    The user can no longer sign in (a PIN request is refused with account_deactivated)
                         and every session ends (their tokens are deleted)
  reactivate <number>    The user can sign in again (with a new PIN; ended sessions stay ended)
  end-sessions <number>  Ends every session of the user (they sign in again with a PIN)

The number may be written as in the app: +46701234561, 0046 70-123 45 61.
Reads DATA_DIR (SQLite) or DATABASE_URL (PostgreSQL), as npm start does.`;

interface UserFound {
  id: number;
  stid: string;
  phone_nr: string;
  nickname: string;
  country_code: string;
  created_at: number;
  deactivated_at: number;
}

/** The number in the form the server stores (+46…), or as typed without spaces when no country accepts it. */
function phoneOf(raw: string): string {
  return normalizePhone(raw)?.phone ?? raw.replace(/[\s().-]/g, '');
}

async function findUser(db: Store, raw: string): Promise<UserFound> {
  const phone = phoneOf(raw);
  const user = await db.get<UserFound>(
    sql`SELECT id, stid, phone_nr, nickname, country_code, created_at, deactivated_at FROM users
        WHERE phone_nr = ${phone} AND deleted_at = '0'`,
  );
  if (!user) throw new AdminError(`No user has the number ${phone}`);
  return user;
}

const who = (user: UserFound) => `${user.phone_nr}${user.nickname ? ` (${user.nickname})` : ''}`;

async function endSessions(db: Store, userId: number): Promise<number> {
  return db.run(sql`DELETE FROM tokens WHERE user_id = ${userId}`);
}

/**
 * Sessions end by their tokens being deleted: every node asks the database for a token on each request and
 * websocket connect, so the next one answers 401 (docs/server.md "Admin tool"). A websocket already open is
 * not asked again: it keeps its events until it reconnects, which the app does after the 401 of its next
 * request.
 */
const SOCKET_NOTE = 'An open websocket keeps running until it reconnects; every request from now on answers 401.';

export async function usersCommand(args: readonly string[], io: AdminIo): Promise<void> {
  const [command, number, ...rest] = args;
  if (!command) throw new UsageError('Which users command?');
  if (!['find', 'deactivate', 'reactivate', 'end-sessions'].includes(command)) {
    throw new UsageError(`Unknown users command "${command}"`);
  }
  if (!number || rest.length > 0) throw new UsageError(`users ${command} takes one phone number`);
  await withStore(io.env, async (db) => {
    const user = await findUser(db, number);
    if (command === 'find') {
      const sessions = await db.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM tokens WHERE user_id = ${user.id}`);
      const chats = await db.get<{ n: number }>(
        sql`SELECT COUNT(*) AS n FROM conversation_members WHERE user_id = ${user.id}`,
      );
      io.out(`id            ${user.id} (${user.stid})`);
      io.out(`number        ${user.phone_nr} (country ${user.country_code})`);
      io.out(`nickname      ${user.nickname || '(none yet)'}`);
      io.out(`signed up     ${new Date(Number(user.created_at)).toISOString()}`);
      io.out(`sessions      ${Number(sessions?.n ?? 0)}`);
      io.out(`chats         ${Number(chats?.n ?? 0)}`);
      const deactivated = Number(user.deactivated_at);
      io.out(`state         ${deactivated ? `deactivated ${new Date(deactivated).toISOString()}` : 'active'}`);
      return;
    }
    if (command === 'deactivate') {
      if (Number(user.deactivated_at)) throw new AdminError(`${who(user)} is already deactivated`);
      const ended = await db.transaction(async () => {
        await db.run(sql`UPDATE users SET deactivated_at = ${Date.now()} WHERE id = ${user.id}`);
        return endSessions(db, user.id);
      });
      io.out(`Deactivated ${who(user)}: they cannot sign in, and ${ended} session(s) ended. ${SOCKET_NOTE}`);
      return;
    }
    if (command === 'reactivate') {
      if (!Number(user.deactivated_at)) throw new AdminError(`${who(user)} is not deactivated`);
      await db.run(sql`UPDATE users SET deactivated_at = 0 WHERE id = ${user.id}`);
      io.out(`Reactivated ${who(user)}: they can sign in again with a new PIN.`);
      return;
    }
    const ended = await endSessions(db, user.id);
    io.out(`Ended ${ended} session(s) of ${who(user)}. ${SOCKET_NOTE}`);
  });
}
