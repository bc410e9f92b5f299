import { type Store, sql } from '../../server/db/store';
import { newToken } from '../../server/http/auth';
import { insertSession } from '../../server/domain/sessions';
import { newStid } from '../../server/domain/ids';

/**
 * `count` signed-in users written straight into the database (a thousand PIN flows would test the PIN
 * route, not the reconnect): one user row and one token each. Returns the tokens, in user order.
 */
export async function insertSignedInUsers(db: Store, count: number, now = Date.now()): Promise<string[]> {
  return db.transaction(async () => {
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      const user = await db.get<{ id: number }>(
        sql`INSERT INTO users (stid, phone_nr, country_code, nickname, created_at)
            VALUES (${newStid('u')}, ${`+4670${String(9_000_000 + i)}`}, '46', ${`Herd ${i}`}, ${now}) RETURNING id`,
      );
      const secret = newToken();
      await insertSession(db, { token: secret, userId: user!.id, now });
      tokens.push(secret);
    }
    return tokens;
  });
}
