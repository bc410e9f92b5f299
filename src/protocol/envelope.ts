/** Every HTTP answer of the API is wrapped in one of these (spec §7). */
export interface ApiSuccess<T> {
  success: true;
  data: T;
}

/**
 * The stable names of the refusals a user meets on the sign-in and send paths (docs/server.md "Refusal
 * codes"). The message stays the server's English (or Swedish) sentence for scripts and older clients; a
 * client words the refusal from its code instead, in its own language.
 */
export const REFUSAL_CODES = [
  'invalid_phone',
  'pin_requests_limited',
  'pin_not_sent',
  'sign_in_attempts_limited',
  'invalid_pin',
  'pin_expired',
  'pin_locked',
  'pin_failures_limited',
  'nickname_required',
  'nickname_too_long',
  'message_empty',
  'message_too_long',
  'send_rate_limited',
  'demo_chat',
  'account_deactivated',
  'image_unreadable',
  'image_too_large',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface ApiFailure {
  success: false;
  /** The HTTP status, repeated in the body so a client never has to read headers. */
  status: number;
  message: string;
  /** The refusal's stable name, when it has one (docs/server.md "Refusal codes"). */
  code?: RefusalCode;
  /** Seconds until asking again can succeed, as in Retry-After: with the refusals that wait. */
  retry_after?: number;
}

export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure;
