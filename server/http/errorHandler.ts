import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiFailure } from '../../src/protocol/envelope';
import { ApiError } from './errors';

function failure(reply: FastifyReply, status: number, message: string) {
  const body: ApiFailure = { success: false, status, message };
  return reply.status(status).send(body);
}

/** Fastify's own 4xx codes carry technical texts; these are the messages a client shows instead. */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Invalid Content-Length.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'The request is not multipart.',
  FST_REQ_FILE_TOO_LARGE: 'File size too large.',
  FST_PARTS_LIMIT: 'Too many parts in the upload.',
  FST_FILES_LIMIT: 'Only one file may be uploaded at a time.',
  FST_FIELDS_LIMIT: 'Too many fields in the upload.',
};

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof ApiError) return failure(reply, error.status, error.message);
    if (error.validation) {
      const first = error.validation[0];
      const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
      const field =
        (first?.params as { missingProperty?: string } | undefined)?.missingProperty ?? where ?? 'request';
      return failure(reply, 400, `Invalid ${field || 'request'}: ${first?.message ?? 'bad value'}`);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return failure(reply, status, FRAMEWORK_MESSAGES[error.code] ?? error.message);
    }
    request.log.error({ err: error }, 'unexpected error');
    return failure(reply, 500, 'An unexpected error occurred');
  });
}

export function apiNotFound(reply: FastifyReply) {
  return failure(reply, 404, 'Not found');
}
