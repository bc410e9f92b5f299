import { createHash, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AccountAnswer, CountriesAnswer, PinConfirmAnswer, PinRequestAnswer } from '../../src/protocol/api';
import { NICKNAME_MAX } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { COUNTRIES, normalizePhone } from '../domain/countries';
import { newStid } from '../domain/ids';
import { announceProfileChange } from '../domain/profileChange';
import type { UserRow } from '../domain/rows';
import { loadUser, serializeUser } from '../domain/serialize';
import { hashToken, me, newToken } from '../http/auth';
import { ApiError, badRequest, tooManyRequests } from '../http/errors';
import { IMAGE_ID_RANGE, numberSchema } from '../http/numbers';
import { ok } from '../http/reply';

export const PIN_TTL_MS = 10 * 60_000;
export const PIN_TRIES_PER_PIN = 5;
export const PIN_FAILURES_PER_DAY = 10;
export const PIN_REQUESTS_PER_WINDOW = 5;
export const PIN_REQUEST_WINDOW_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
export const PIN_NOT_SENT = 'The PIN code could not be sent. Please try again.';

const pinHash = (phone: string, pin: string) => createHash('sha256').update(`${phone}:${pin}`).digest('hex');

const phoneBody = {
  type: 'object',
  required: ['phone_nr'],
  properties: { phone_nr: { type: 'string', minLength: 1, maxLength: 32 } },
} as const;

function requirePhone(raw: string) {
  const normalized = normalizePhone(raw);
  if (!normalized) throw badRequest('Please enter a valid phone number');
  return normalized;
}

/** Nickname rule of spec §5: trimmed, non-empty, at most 50 characters. */
export function validNickname(raw: string): string {
  const nickname = raw.trim();
  if (nickname === '') throw badRequest('Please enter a nickname');
  if ([...nickname].length > NICKNAME_MAX) throw badRequest(`Nickname must be at most ${NICKNAME_MAX} characters`);
  return nickname;
}

/**
 * Runs `update` on the user's row and tells the people who share a chat with them what changed, in one
 * transaction. Answers the row after the change.
 */
function updateProfile(ctx: ServerContext, userId: number, update: () => void): UserRow {
  return ctx.events.transaction(() => {
    const before = loadUser(ctx.db, userId) as UserRow;
    update();
    const after = loadUser(ctx.db, userId) as UserRow;
    announceProfileChange(ctx, before, after);
    return after;
  });
}

export function registerAuthRoutes(app: FastifyInstance, ctx: ServerContext): void {
  const { db, clock } = ctx;

  app.get('/v1/countries', { config: { public: true } }, async () => ok<CountriesAnswer>({ countries: [...COUNTRIES] }));

  app.post<{ Body: { phone_nr: string } }>(
    '/v1/auth/pin',
    { config: { public: true }, schema: { body: phoneBody } },
    async (request) => {
      const { phone } = requirePhone(request.body.phone_nr);
      const now = clock.now();
      const recent =
        db
          .prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM pin_requests WHERE phone_nr = ? AND at > ?')
          .get(phone, now - PIN_REQUEST_WINDOW_MS)?.n ?? 0;
      if (recent >= PIN_REQUESTS_PER_WINDOW) {
        ctx.metrics.limitRefusals.inc({ limit: 'pin_request' });
        throw tooManyRequests('Too many PIN requests for this number. Please wait a few minutes.');
      }
      const pin = ctx.config.devPin ?? String(randomInt(0, 10_000)).padStart(4, '0');
      db.transaction(() => {
        db.prepare('DELETE FROM pin_requests WHERE at <= ?').run(now - DAY_MS);
        db.prepare('INSERT INTO pin_requests (phone_nr, at) VALUES (?, ?)').run(phone, now);
        db.prepare(
          `INSERT INTO pins (phone_nr, pin_hash, issued_at, expires_at, wrong_tries) VALUES (?, ?, ?, ?, 0)
           ON CONFLICT (phone_nr) DO UPDATE SET pin_hash = excluded.pin_hash, issued_at = excluded.issued_at,
             expires_at = excluded.expires_at, wrong_tries = 0`,
        ).run(phone, pinHash(phone, pin), now, now + PIN_TTL_MS);
      })();
      try {
        await ctx.announcePin(phone, pin);
      } catch (error) {
        // Logged without the PIN or the number; the user asks again (the request counts towards the limit).
        request.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'PIN delivery failed');
        throw new ApiError(503, PIN_NOT_SENT);
      }
      return ok<PinRequestAnswer>({ status: 'sent' });
    },
  );

  app.post<{ Body: { phone_nr: string; pin: string } }>(
    '/v1/auth/pin/confirm',
    {
      config: { public: true },
      schema: {
        body: {
          type: 'object',
          required: ['phone_nr', 'pin'],
          properties: { phone_nr: phoneBody.properties.phone_nr, pin: { type: 'string', maxLength: 16 } },
        },
      },
    },
    async (request) => {
      const { phone, country } = requirePhone(request.body.phone_nr);
      const pin = request.body.pin;
      if (!/^\d{4}$/.test(pin)) throw badRequest('Invalid PIN code');
      const now = clock.now();
      const failures =
        db
          .prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM pin_failures WHERE phone_nr = ? AND at > ?')
          .get(phone, now - DAY_MS)?.n ?? 0;
      // Counted per number, whatever address the tries come from, and checked before the PIN itself.
      if (failures >= PIN_FAILURES_PER_DAY) {
        ctx.metrics.limitRefusals.inc({ limit: 'pin_failures' });
        throw tooManyRequests('Too many wrong PIN codes for this number. Please try again tomorrow.');
      }
      const issued = db
        .prepare<[string], { pin_hash: string; expires_at: number; wrong_tries: number }>(
          'SELECT pin_hash, expires_at, wrong_tries FROM pins WHERE phone_nr = ?',
        )
        .get(phone);
      if (!issued || issued.expires_at <= now) {
        throw badRequest('The PIN code has expired or was never sent. Please request a new one.');
      }
      if (issued.pin_hash !== pinHash(phone, pin)) {
        db.transaction(() => {
          db.prepare('INSERT INTO pin_failures (phone_nr, at) VALUES (?, ?)').run(phone, now);
          if (issued.wrong_tries + 1 >= PIN_TRIES_PER_PIN) db.prepare('DELETE FROM pins WHERE phone_nr = ?').run(phone);
          else db.prepare('UPDATE pins SET wrong_tries = wrong_tries + 1 WHERE phone_nr = ?').run(phone);
        })();
        throw badRequest('Invalid PIN code');
      }
      const token = newToken();
      const userId = db.transaction(() => {
        db.prepare('DELETE FROM pins WHERE phone_nr = ?').run(phone);
        const existing = db.prepare<[string], { id: number }>('SELECT id FROM users WHERE phone_nr = ?').get(phone);
        const id =
          existing?.id ??
          Number(
            db
              .prepare('INSERT INTO users (stid, phone_nr, country_code, created_at) VALUES (?, ?, ?, ?)')
              .run(newStid('u'), phone, country.cc, now).lastInsertRowid,
          );
        db.prepare('INSERT INTO tokens (hash, user_id, created_at) VALUES (?, ?, ?)').run(hashToken(token), id, now);
        return id;
      })();
      return ok<PinConfirmAnswer>({ token, user_id: userId, endpoints: country.endpoints });
    },
  );

  app.get('/v1/me', async (request) => {
    const user = loadUser(db, me(request).id) as UserRow;
    return ok<AccountAnswer>({ account: serializeUser(db, user) });
  });

  app.put<{ Body: { nickname?: string; email?: string; image_id?: number } }>(
    '/v1/me',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            nickname: { type: 'string', maxLength: 200 },
            email: { type: 'string', maxLength: 254 },
            image_id: numberSchema(IMAGE_ID_RANGE),
          },
        },
      },
    },
    async (request) => {
      const userId = me(request).id;
      const { nickname, email, image_id: imageId } = request.body ?? {};
      const fields: Record<string, string | number | null> = {};
      if (nickname !== undefined) fields.nickname = validNickname(nickname);
      if (email !== undefined) {
        const trimmed = email.trim();
        if (trimmed !== '' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) throw badRequest('Please enter a valid email');
        fields.email = trimmed;
      }
      if (imageId === 0) {
        // As for conversations: 0 removes the picture (the default avatar shows again).
        fields.image_file_id = null;
      } else if (imageId !== undefined) {
        const file = db
          .prepare<[number, number], { id: number }>(
            "SELECT id FROM files WHERE id = ? AND owner_id = ? AND purpose = 'avatar'",
          )
          .get(imageId, userId);
        if (!file) throw badRequest('Unknown image');
        fields.image_file_id = imageId;
      }
      if (Object.keys(fields).length === 0) throw badRequest('Nothing to update');
      const sets = Object.keys(fields).map((k) => `${k} = ?`);
      const after = updateProfile(ctx, userId, () =>
        db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...Object.values(fields), userId),
      );
      return ok<AccountAnswer>({ account: serializeUser(db, after) });
    },
  );

  app.post<{ Body: { name: string } }>(
    '/v2/me/register',
    {
      schema: {
        body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 200 } } },
      },
    },
    async (request) => {
      const userId = me(request).id;
      const nickname = validNickname(request.body.name);
      const after = updateProfile(ctx, userId, () =>
        db.prepare('UPDATE users SET nickname = ? WHERE id = ?').run(nickname, userId),
      );
      return ok<AccountAnswer>({ account: serializeUser(db, after) });
    },
  );
}
