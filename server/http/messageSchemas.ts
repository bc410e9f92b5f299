import type { FastifyRequest } from 'fastify';
import { HEADER_IDEMPOTENCY_KEY } from '../../src/protocol/api';
import { CLIENT_ID_MAX, CLIENT_ID_MIN } from '../../src/protocol/constants';
import { badRequest } from './errors';
import { ID_RANGE, numberSchema } from './numbers';

/** JSON-schema pieces shared by the calls that carry message content (send and create post). */
export const positiveId = numberSchema(ID_RANGE);
export const nullableId = numberSchema(ID_RANGE, { nullable: true });

export interface MessageContentBody {
  client_id?: number;
  message?: string;
  attachment?: { type: 'image' | 'video'; files: { id: string }[] } | null;
  quoted_message_id?: number | null;
}

export const messageContentProperties = {
  client_id: numberSchema({ min: CLIENT_ID_MIN, max: CLIENT_ID_MAX }),
  message: { type: 'string' },
  attachment: {
    type: ['object', 'null'],
    required: ['type', 'files'],
    properties: {
      type: { type: 'string', enum: ['image', 'video'] },
      files: {
        type: 'array',
        minItems: 1,
        maxItems: 1,
        items: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
        },
      },
    },
  },
  quoted_message_id: nullableId,
} as const;

export const IDEMPOTENCY_KEY_MAX = 100;

/** The Idempotency-Key header (the outbox's unique local id), or null when absent. */
export function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers[HEADER_IDEMPOTENCY_KEY.toLowerCase()];
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || raw.length > IDEMPOTENCY_KEY_MAX) {
    throw badRequest(`Idempotency-Key must be at most ${IDEMPOTENCY_KEY_MAX} characters`);
  }
  return raw;
}
