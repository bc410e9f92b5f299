import type { FastifyRequest } from 'fastify';
import { MESSAGE_PAGE_MAX } from '../../src/protocol/constants';
import { INVALID_PARAMETERS } from '../domain/communityAccess';
import type { PageQuery } from '../domain/channelPaging';
import { badRequest } from '../http/errors';
import { positiveId } from '../http/messageSchemas';

/**
 * The community and channel routes validate with `attachValidation` and answer every schema failure
 * with the one text spec §5 names for them, instead of Ajv's technical wording.
 */
export function rejectInvalid(request: FastifyRequest): void {
  if (request.validationError) throw badRequest(INVALID_PARAMETERS);
}

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

export const pageProperties = {
  limit: { type: 'integer', minimum: 1, maximum: MESSAGE_PAGE_MAX },
  before: positiveId,
  after: positiveId,
  around: positiveId,
} as const;

export interface PageQuerystring {
  limit?: number;
  before?: number;
  after?: number;
  around?: number;
}

export function toPageQuery(q: PageQuerystring, fallbackLimit: number): PageQuery {
  return { limit: q.limit ?? fallbackLimit, before: q.before, after: q.after, around: q.around };
}
