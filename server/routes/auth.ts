import { createHash, randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AccountAnswer, CountriesAnswer, PinConfirmAnswer, PinRequestAnswer } from '../../src/protocol/api';
import { NICKNAME_MAX } from '../../src/protocol/constants';
import type { ServerContext } from '../context';
import { sql } from '../db/store';
import { COUNTRIES, normalizePhone } from '../domain/countries';
import { deviceNames } from '../domain/deviceLabel';
import { newStid } from '../domain/ids';
import { pinRequestWaitSeconds, pinRequestWaitWords } from '../domain/pinRequestWait';
import { announceProfileChange } from '../domain/profileChange';
import type { UserRow } from '../domain/rows';
import { loadUser, serializeUser } from '../domain/serialize';
import { idleMs, insertSession, pruneIdleSessions } from '../domain/sessions';
import { me, newToken } from '../http/auth';
import { ApiError, badRequest, tooManyRequests } from '../http/errors';
import { IMAGE_ID_RANGE, numberSchema } from '../http/numbers';
import { ok } from '../http/reply';

export const PIN_TTL_MS = 10 * 60_000;
export const PIN_TRIES_PER_PIN = 5;
export const PIN_FAILURES_PER_DAY = 10;
export const PIN_REQUESTS_PER_WINDOW = 5;
export const PIN_REQUEST_WINDOW_MS = 15 * 60_000;
/** How long the fifth wrong try of a PIN locks the number (docs/server.md "Login"). */
export const PIN_LOCK_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
export const PIN_NOT_SENT = 'The PIN code could not be sent. Please try again.';
export const ACCOUNT_DEACTIVATED = 'This account has been deactivated.';

const pinHash = (phone: string, pin: string) => createHash('sha256').update(`${phone}:${pin}`).digest('hex');

const phoneBody = {
  type: 'object',
  required: ['phone_nr'],
  properties: { phone_nr: { type: 'string', minLength: 1, maxLength: 32 } },
} as const;

function requirePhone(raw: string) {
  const normalized = normalizePhone(raw);
  if (!normalized) throw badRequest('Please enter a valid phone number', 'invalid_phone');
  return normalized;
}

/** Whole seconds from `now` until `at` (at least 1: a refusal never says "try again now"). */
/**
 * A number whose user an operator deactivated (`npm run admin -- users deactivate`, docs/server.md "Admin
 * tool") is refused before any PIN is issued or tried: it could never sign in anyway.
 */
async function refuseDeactivated(ctx: ServerContext, phone: string): Promise<void> {
  const row = await ctx.db.get<{ deactivated_at: number }>(sql`SELECT deactivated_at FROM users WHERE phone_nr = ${phone}`);
  if (row && Number(row.deactivated_at) !== 0) throw new ApiError(403, ACCOUNT_DEACTIVATED, null, 'account_deactivated');
}

const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

/**
 * A number locked by its wrong tries, until `until`: every try and every PIN request meanwhile, the right
 * PIN too, is told so and when it opens (docs/server.md "Login").
 */
function pinLocked(until: number, now: number): ApiError {
  const seconds = secondsUntil(until, now);
  const wait = pinRequestWaitWords(seconds);
  return tooManyRequests(`Too many wrong PIN codes. This number is locked; try again in ${wait}.`, seconds, 'pin_locked');
}

/** Nickname rule of spec §5: trimmed, non-empty, at most 50 characters. */
export function validNickname(raw: string): string {
  const nickname = raw.trim();
  if (nickname === '') throw badRequest('Please enter a nickname', 'nickname_required');
  if ([...nickname].length > NICKNAME_MAX) {
    throw badRequest(`Nickname must be at most ${NICKNAME_MAX} characters`, 'nickname_too_long');
  }
  return nickname;
}

/**
 * Runs `update` on the user's row and tells the people who share a chat with them what changed, in one
 * transaction. Answers the row after the change.
 */
async function updateProfile(ctx: ServerContext, userId: number, update: () => Promise<unknown>): Promise<UserRow> {
  return ctx.events.transaction(async () => {
    const before = (await loadUser(ctx.db, userId)) as UserRow;
    await update();
    const after = (await loadUser(ctx.db, userId)) as UserRow;
    await announceProfileChange(ctx, before, after);
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
      await refuseDeactivated(ctx, phone);
      const now = clock.now();
      const pin = ctx.config.devPin ?? String(randomInt(0, 10_000)).padStart(4, '0');
      await db.transaction(async () => {
        // The number's PIN row first: it stays locked until this transaction ends, so requests for one number at
        // the same time are counted one after another (each sees the ones before it), never all against one count.
        // A refused request rolls back, and the PIN issued before stays. A locked number's row (its wrong tries
        // used up, `expires_at` not passed: the lock's end) is left as it is, and the request is refused.
        const issued = await db.get<{ phone_nr: string }>(
          sql`INSERT INTO pins (phone_nr, pin_hash, issued_at, expires_at, wrong_tries)
              VALUES (${phone}, ${pinHash(phone, pin)}, ${now}, ${now + PIN_TTL_MS}, 0)
              ON CONFLICT (phone_nr) DO UPDATE SET pin_hash = excluded.pin_hash, issued_at = excluded.issued_at,
                expires_at = excluded.expires_at, wrong_tries = 0
              WHERE pins.wrong_tries < ${PIN_TRIES_PER_PIN} OR pins.expires_at <= ${now}
              RETURNING phone_nr`,
        );
        if (!issued) {
          const lock = await db.get<{ expires_at: number }>(sql`SELECT expires_at FROM pins WHERE phone_nr = ${phone}`);
          ctx.metrics.limitRefusals.inc({ limit: 'pin_locked' });
          throw pinLocked(Number(lock?.expires_at ?? now), now);
        }
        const since = now - PIN_REQUEST_WINDOW_MS;
        // The limit's worth of the latest requests in the window: when all are there, the oldest of them
        // says when the number may ask again (it leaves the window then, and the count drops below the limit).
        const counted = await db.get<{ at: number }>(
          sql`SELECT at FROM pin_requests WHERE phone_nr = ${phone} AND at > ${since}
              ORDER BY at DESC LIMIT 1 OFFSET ${PIN_REQUESTS_PER_WINDOW - 1}`,
        );
        if (counted) {
          ctx.metrics.limitRefusals.inc({ limit: 'pin_request' });
          const seconds = pinRequestWaitSeconds(Number(counted.at), PIN_REQUEST_WINDOW_MS, now);
          const wait = pinRequestWaitWords(seconds);
          throw tooManyRequests(`Too many PIN requests for this number. Try again in ${wait}.`, seconds, 'pin_requests_limited');
        }
        await db.run(sql`DELETE FROM pin_requests WHERE at <= ${now - DAY_MS}`);
        await db.run(sql`INSERT INTO pin_requests (phone_nr, at) VALUES (${phone}, ${now})`);
      });
      try {
        await ctx.announcePin(phone, pin);
      } catch (error) {
        // Logged without the PIN or the number; the user asks again (the request counts towards the limit).
        request.log.warn({ err: error instanceof Error ? error.message : String(error) }, 'PIN delivery failed');
        throw new ApiError(503, PIN_NOT_SENT, null, 'pin_not_sent');
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
      if (!/^\d{4}$/.test(pin)) throw badRequest('Invalid PIN code', 'invalid_pin');
      // A PIN issued before the deactivation must not sign the user in after it.
      await refuseDeactivated(ctx, phone);
      const now = clock.now();
      const token = newToken();
      const userId = await db.transaction(async () => {
        // This try is counted on the number's PIN row first: the row stays locked until the transaction ends, so
        // tries at the same time are judged one after another (each sees the failures before it), never all
        // against one count. A refusal that throws rolls the count back.
        const issued = await db.get<{ pin_hash: string; expires_at: number; wrong_tries: number }>(
          sql`UPDATE pins SET wrong_tries = wrong_tries + 1 WHERE phone_nr = ${phone}
              RETURNING pin_hash, expires_at, wrong_tries`,
        );
        const since = now - DAY_MS;
        // The day's failures, oldest first: when the limit is reached, the oldest says when it opens again.
        const failures = await db.get<{ n: number; oldest: number | null }>(
          sql`SELECT COUNT(*) AS n, MIN(at) AS oldest FROM pin_failures WHERE phone_nr = ${phone} AND at > ${since}`,
        );
        // Counted per number, whatever address the tries come from, and checked before the PIN itself.
        const dayLimit = (oldest: number) => {
          ctx.metrics.limitRefusals.inc({ limit: 'pin_failures' });
          return tooManyRequests(
            'Too many wrong PIN codes for this number. Please try again tomorrow.',
            secondsUntil(oldest + DAY_MS, now),
            'pin_failures_limited',
          );
        };
        const failed = Number(failures?.n ?? 0);
        if (failed >= PIN_FAILURES_PER_DAY) throw dayLimit(Number(failures?.oldest ?? now));
        // `wrong_tries` counts this try already: a row whose earlier tries used the PIN's up is a locked number,
        // whose `expires_at` is when the lock ends. The right PIN is refused as well, until then.
        if (issued && issued.wrong_tries - 1 >= PIN_TRIES_PER_PIN && issued.expires_at > now) {
          ctx.metrics.limitRefusals.inc({ limit: 'pin_locked' });
          throw pinLocked(Number(issued.expires_at), now);
        }
        if (!issued || issued.expires_at <= now || issued.wrong_tries - 1 >= PIN_TRIES_PER_PIN) {
          throw badRequest('The PIN code has expired or was never sent. Please request a new one.', 'pin_expired');
        }
        if (issued.pin_hash !== pinHash(phone, pin)) {
          // Committed, not thrown: the wrong try is kept (`wrong_tries` counts it already), and its refusal is
          // answered once the transaction has ended.
          await db.run(sql`INSERT INTO pin_failures (phone_nr, at) VALUES (${phone}, ${now})`);
          // The day's last wrong try: the number is locked until the day's first failure is 24 hours old.
          if (failed + 1 >= PIN_FAILURES_PER_DAY) return dayLimit(Number(failures?.oldest ?? now));
          if (issued.wrong_tries < PIN_TRIES_PER_PIN) return badRequest('Invalid PIN code', 'invalid_pin');
          // The PIN's last try: it is void, and the number is locked until PIN_LOCK_MS from now. The row stays,
          // its `expires_at` now the lock's end, so the tries and requests meanwhile are told of the lock.
          await db.run(sql`UPDATE pins SET expires_at = ${now + PIN_LOCK_MS} WHERE phone_nr = ${phone}`);
          ctx.metrics.limitRefusals.inc({ limit: 'pin_locked' });
          return pinLocked(now + PIN_LOCK_MS, now);
        }
        await db.run(sql`DELETE FROM pins WHERE phone_nr = ${phone}`);
        // A new number is inserted unless it is there; another request may add it meanwhile (someone adding
        // this number to a chat), and then its row is the one.
        const inserted = await db.get<{ id: number }>(
          sql`INSERT INTO users (stid, phone_nr, country_code, created_at)
              VALUES (${newStid('u')}, ${phone}, ${country.cc}, ${now})
              ON CONFLICT (phone_nr) DO NOTHING RETURNING id`,
        );
        const id = inserted?.id ?? (await db.get<{ id: number }>(sql`SELECT id FROM users WHERE phone_nr = ${phone}`))!.id;
        await insertSession(db, { token, userId: id, now, device: deviceNames(request.headers['user-agent']) });
        // Sessions unused for longer than SESSION_IDLE_DAYS can never be used again: a sign-in clears them away.
        await pruneIdleSessions(db, now - idleMs(ctx.config.sessionIdleDays));
        return id;
      });
      if (userId instanceof ApiError) throw userId;
      return ok<PinConfirmAnswer>({ token, user_id: userId, endpoints: country.endpoints });
    },
  );

  app.get('/v1/me', async (request) => {
    const user = (await loadUser(db, me(request).id)) as UserRow;
    return ok<AccountAnswer>({ account: await serializeUser(db, user) });
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
        const file = await db.get<{ id: number }>(
          sql`SELECT id FROM files WHERE id = ${imageId} AND owner_id = ${userId} AND purpose = 'avatar'`,
        );
        if (!file) throw badRequest('Unknown image');
        fields.image_file_id = imageId;
      }
      if (Object.keys(fields).length === 0) throw badRequest('Nothing to update');
      // The column names are the three keys above, never the client's.
      const sets = Object.entries(fields).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
      const after = await updateProfile(ctx, userId, () =>
        db.run(sql`UPDATE users SET ${sql.join(sets)} WHERE id = ${userId}`),
      );
      return ok<AccountAnswer>({ account: await serializeUser(db, after) });
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
      const after = await updateProfile(ctx, userId, () =>
        db.run(sql`UPDATE users SET nickname = ${nickname} WHERE id = ${userId}`),
      );
      return ok<AccountAnswer>({ account: await serializeUser(db, after) });
    },
  );
}
