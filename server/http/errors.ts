import type { RefusalCode } from '../../src/protocol/envelope';

/** An error the API answers with its own status and message (never a 5xx for bad input). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent as Retry-After, so a client (and any proxy) knows when asking again can succeed. */
    readonly retryAfterSeconds: number | null = null,
    /**
     * The refusal's stable name, sent as `code` beside the message (docs/server.md "Refusal codes"): a
     * client words the refusal itself from it, in its own language, whatever the message says.
     */
    readonly code: RefusalCode | null = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code: RefusalCode | null = null) => new ApiError(400, message, null, code);
export const unauthorized = (message = 'Unauthorized') => new ApiError(401, message);
export const forbidden = (message: string, code: RefusalCode | null = null) => new ApiError(403, message, null, code);
export const notFound = (message: string) => new ApiError(404, message);
export const tooLarge = (message: string) => new ApiError(413, message);
export const unsupportedType = (message: string) => new ApiError(415, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number | null = null, code: RefusalCode | null = null) =>
  new ApiError(429, message, retryAfterSeconds, code);
