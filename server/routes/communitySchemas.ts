import type { FastifyRequest } from 'fastify';
import { MESSAGE_PAGE_MAX } from '../../src/protocol/constants';
import { INVALID_PARAMETERS } from '../domain/communityAccess';
import type { PageQuery } from '../domain/channelPaging';
import { badRequest } from '../http/errors';
import { positiveId } from '../http/messageSchemas';
import { numberSchema, schemaNumberRefusal } from '../http/numbers';

/**
 * The community and channel routes validate with `attachValidation` and answer a schema failure with the
 * one text spec §5 names for them, instead of Ajv's technical wording; a number that is there but breaks
 * the number rule is refused like everywhere else, naming the field (docs/server.md "Numbers").
 */
export function rejectInvalid(request: FastifyRequest): void {
  if (!request.validationError) return;
  throw schemaNumberRefusal(request.validationError) ?? badRequest(INVALID_PARAMETERS);
}

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 } },
} as const;

export const pageProperties = {
  limit: numberSchema({ min: 1, max: MESSAGE_PAGE_MAX }),
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
