import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import pg from 'pg';
import type { ApiFailure, RefusalCode } from '../../src/protocol/envelope';
import { isDatabaseUnavailable } from '../db/store';
import { ApiError } from './errors';
import { localize, type Localized, requestLanguage, type ServerLanguage } from './language';
import { type SchemaError, SWEDISH_GENERIC_REFUSAL, swedishSchemaMessage } from './messages.sv';
import { schemaNumberRefusal } from './numbers';

/**
 * The failure envelope, its message in the language the request asks for (Accept-Language, docs/server.md
 * "Languages"). Every message the server sends a client goes out through here.
 */
export function failure(
  reply: FastifyReply,
  status: number,
  message: string | Localized,
  refusal: { code?: RefusalCode | null; retryAfterSeconds?: number | null } = {},
) {
  const body: ApiFailure = { success: false, status, message: localize(message, requestLanguage(reply.request.headers)) };
  // The refusal's stable name and its wait beside the message (docs/server.md "Refusal codes").
  if (refusal.code) body.code = refusal.code;
  if (refusal.retryAfterSeconds != null) body.retry_after = refusal.retryAfterSeconds;
  return reply.status(status).header('Vary', 'Accept-Language').send(body);
}

/** Fastify's own 4xx codes carry technical texts; these are the messages a client shows instead. */
export const FRAMEWORK_MESSAGES: Record<string, string> = {
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

/** A Fastify 4xx: our text for its code, else Fastify's own (which has no Swedish: a Swedish client gets a plain refusal). */
function frameworkMessage(error: FastifyError): string | Localized {
  return FRAMEWORK_MESSAGES[error.code] ?? { en: error.message, sv: SWEDISH_GENERIC_REFUSAL };
}

/**
 * A schema refusal: the number rule's own text (translated by the table like any other), else AJV's text
 * in English ("Invalid pin: must be string") and one made from its keyword in Swedish.
 */
function validationMessage(error: FastifyError): string | Localized {
  const number = schemaNumberRefusal(error);
  if (number) return number.message;
  const first = error.validation?.[0];
  const where = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
  const field = (first?.params as { missingProperty?: string } | undefined)?.missingProperty ?? where;
  return {
    en: `Invalid ${field || 'request'}: ${first?.message ?? 'bad value'}`,
    sv: swedishSchemaMessage(field || null, first as SchemaError | undefined),
  };
}

/**
 * The database refusing a value it was given: SQLite's type it cannot compare, string too big or broken
 * constraint; PostgreSQL's data exceptions (class 22: a number out of range, text that is no number, a NUL
 * in text…) and integrity constraint violations (class 23). Their texts name tables and SQL, so they are
 * never sent; the failures of the database itself (a full disk, a locked file, a lost connection) stay 500s.
 */
function isDatabaseInputError(error: FastifyError): boolean {
  if (error instanceof pg.DatabaseError) return /^2[23]/.test(error.code ?? '');
  return error.name === 'SqliteError' && /^SQLITE_(MISMATCH|TOOBIG|RANGE|CONSTRAINT)/.test(error.code ?? '');
}

/** The `warnings` of a success envelope (delete and hide messages), or null. */
function warningsOf(payload: unknown): unknown[] | null {
  if (typeof payload !== 'object' || payload === null) return null;
  const envelope = payload as { success?: unknown; data?: { warnings?: unknown } };
  const warnings = envelope.success === true ? envelope.data?.warnings : undefined;
  return Array.isArray(warnings) ? warnings : null;
}

/**
 * `warnings[].reason` of a batch that was partly done: human texts in a success, sent in the request's
 * language like a failure's message.
 */
function localizeWarnings(payload: unknown, warnings: unknown[], language: ServerLanguage): unknown {
  if (language === 'en') return payload;
  const envelope = payload as { data: object };
  return {
    ...envelope,
    data: {
      ...envelope.data,
      warnings: warnings.map((warning) => {
        const reason = (warning as { reason?: unknown } | null)?.reason;
        return typeof reason === 'string' ? { ...(warning as object), reason: localize(reason, language) } : warning;
      }),
    },
  };
}

/** The answer while the database cannot be reached (a restart of PostgreSQL, a lost connection). */
export const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';
const DATABASE_RETRY_AFTER_SECONDS = '2';

/** The error handler, and the hook that sends the reasons of `warnings` in the request's language. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof ApiError) {
      if (error.retryAfterSeconds !== null) reply.header('Retry-After', String(error.retryAfterSeconds));
      return failure(reply, error.status, error.message, { code: error.code, retryAfterSeconds: error.retryAfterSeconds });
    }
    if (error.validation) return failure(reply, 400, validationMessage(error));
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) return failure(reply, status, frameworkMessage(error));
    if (isDatabaseInputError(error)) {
      // The schemas and the number rule should have stopped this value: a bug to fix, not the client's 500.
      request.log.error({ err: error }, `input reached ${error instanceof pg.DatabaseError ? 'PostgreSQL' : 'SQLite'}`);
      return failure(reply, 400, 'Bad request');
    }
    if (isDatabaseUnavailable(error)) {
      // Nothing was stored (the transaction did not commit): the client's outbox sends it again, and its
      // Idempotency-Key keeps a send that did commit to one message.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('Retry-After', DATABASE_RETRY_AFTER_SECONDS);
      return failure(reply, 503, DATABASE_UNAVAILABLE);
    }
    request.log.error({ err: error }, 'unexpected error');
    return failure(reply, 500, 'An unexpected error occurred');
  });
  app.addHook('preSerialization', async (request, reply, payload) => {
    const warnings = warningsOf(payload);
    if (!warnings) return payload;
    reply.header('Vary', 'Accept-Language');
    return localizeWarnings(payload, warnings, requestLanguage(request.headers));
  });
}

export function apiNotFound(reply: FastifyReply) {
  return failure(reply, 404, 'Not found');
}
