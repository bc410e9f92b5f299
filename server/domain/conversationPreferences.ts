import {
  DELIVERY_MODES,
  type DeliveryMode,
  type DeliverySettings,
  type DeliverySettingsAnswer,
  type MuteAnswer,
  MUTE_TYPES,
  type MuteSetting,
  type MuteType,
} from '../../src/protocol/api';
import { type Store, sql } from '../db/store';
import { badRequest } from '../http/errors';
import { numberSchema } from '../http/numbers';
import { epochSeconds } from './ids';

/**
 * Per-member preferences of one conversation, stored as JSON in conversation_members (mute,
 * delivery_settings). The spec names the calls but not their values; these are our rulings (README).
 *
 * Mute `type`: a duration ('1h', '8h', '1d', '1w'), 'forever', or 'unmute'. The answer says until when
 * (epoch seconds as a string, like created_at; null for 'forever'); after that moment the chat is
 * unmuted again without another call. `time_zone` (an IANA name, default 'UTC') is kept so a client
 * on another device can show the end in the zone the user chose it in.
 */
export const MUTE_DURATIONS_MS = {
  '1h': 3_600_000,
  '8h': 8 * 3_600_000,
  '1d': 86_400_000,
  '1w': 7 * 86_400_000,
  forever: null,
} as const satisfies Record<MuteType, number | null>;

export const muteBodySchema = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', enum: MUTE_TYPES },
    time_zone: { type: 'string', minLength: 1, maxLength: 64 },
  },
} as const;

interface StoredMute {
  type: MuteType;
  time_zone: string;
  until: number | null;
}

function validTimeZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw badRequest('Unknown time zone');
  }
}

export async function setMute(
  db: Store,
  conversationId: number,
  userId: number,
  body: { type: MuteType | 'unmute'; time_zone?: string },
  now: number,
): Promise<MuteAnswer> {
  const timeZone = validTimeZone(body.time_zone ?? 'UTC');
  let stored: StoredMute | null = null;
  if (body.type !== 'unmute') {
    const duration = MUTE_DURATIONS_MS[body.type];
    stored = { type: body.type, time_zone: timeZone, until: duration === null ? null : now + duration };
  }
  const mute = stored ? JSON.stringify(stored) : null;
  await db.run(
    sql`UPDATE conversation_members SET mute = ${mute} WHERE conversation_id = ${conversationId} AND user_id = ${userId}`,
  );
  return { mute: muteSetting(stored, now) };
}

function muteSetting(stored: StoredMute | null, now: number): MuteSetting | null {
  if (!stored) return null;
  return {
    type: stored.type,
    time_zone: stored.time_zone,
    until: stored.until === null ? null : epochSeconds(stored.until),
    muted: stored.until === null || stored.until > now,
  };
}

/**
 * Delivery `mode`: how new messages of this chat reach the member's devices as notifications.
 * 'all' (each message), 'smart' (at most one notification per `smart_mode_options.interval_minutes`,
 * 1..1440, default 5), 'silent' (notified without sound) and 'none' (no notifications; messages still
 * arrive and count as unread). smart_mode_options is accepted only with 'smart'.
 */
export const SMART_INTERVAL_DEFAULT = 5;


export const deliveryBodySchema = {
  type: 'object',
  required: ['mode'],
  properties: {
    mode: { type: 'string', enum: DELIVERY_MODES },
    smart_mode_options: {
      type: 'object',
      additionalProperties: false,
      properties: { interval_minutes: numberSchema({ min: 1, max: 1440 }) },
    },
  },
} as const;

export async function setDeliverySettings(
  db: Store,
  conversationId: number,
  userId: number,
  body: { mode: DeliveryMode; smart_mode_options?: { interval_minutes?: number } },
): Promise<DeliverySettingsAnswer> {
  if (body.smart_mode_options !== undefined && body.mode !== 'smart') {
    throw badRequest('smart_mode_options can only be given with mode smart');
  }
  const settings: DeliverySettings = {
    mode: body.mode,
    smart_mode_options:
      body.mode === 'smart'
        ? { interval_minutes: body.smart_mode_options?.interval_minutes ?? SMART_INTERVAL_DEFAULT }
        : null,
  };
  await db.run(
    sql`UPDATE conversation_members SET delivery_settings = ${JSON.stringify(settings)}
        WHERE conversation_id = ${conversationId} AND user_id = ${userId}`,
  );
  return { delivery_settings: settings };
}
