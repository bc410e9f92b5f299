import type { Db } from '../../server/db/database';
import { hashToken, newToken } from '../../server/http/auth';
import { newStid } from '../../server/domain/ids';

/**
 * `count` signed-in users written straight into the database (a thousand PIN flows would test the PIN
 * route, not the reconnect): one user row and one token each. Returns the tokens, in user order.
 */
export function insertSignedInUsers(db: Db, count: number, now = Date.now()): string[] {
  const user = db.prepare('INSERT INTO users (stid, phone_nr, country_code, nickname, created_at) VALUES (?, ?, ?, ?, ?)');
  const token = db.prepare('INSERT INTO tokens (hash, user_id, created_at) VALUES (?, ?, ?)');
  return db.transaction(() =>
    Array.from({ length: count }, (_, i) => {
      const id = Number(user.run(newStid('u'), `+4670${String(9_000_000 + i)}`, '46', `Herd ${i}`, now).lastInsertRowid);
      const secret = newToken();
      token.run(hashToken(secret), id, now);
      return secret;
    }),
  )();
}
