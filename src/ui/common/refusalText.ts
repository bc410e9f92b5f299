import type { TFunction } from 'i18next';
import type { EngineError } from '../../engine/api';
import { MESSAGE_TEXT_MAX, NICKNAME_MAX } from '../../protocol/constants';
import type { RefusalCode } from '../../protocol/envelope';

/**
 * The app's own text for each of the server's refusal codes (docs/server.md "Refusal codes"), a key of
 * `src/locales/<language>/errors.json`: the refusal is worded in the app's language whatever language the
 * server's message is in (docs/ui.md "Refusals").
 */
const REFUSAL_KEYS: Readonly<Record<RefusalCode, string>> = {
  invalid_phone: 'errors.refusals.invalidPhone',
  pin_requests_limited: 'errors.refusals.pinRequestsLimited',
  pin_not_sent: 'errors.refusals.pinNotSent',
  sign_in_attempts_limited: 'errors.refusals.signInAttemptsLimited',
  invalid_pin: 'errors.invalidPin',
  pin_expired: 'errors.refusals.pinExpired',
  pin_locked: 'errors.refusals.pinLocked',
  pin_failures_limited: 'errors.refusals.pinFailuresLimited',
  nickname_required: 'errors.refusals.nicknameRequired',
  nickname_too_long: 'errors.refusals.nicknameTooLong',
  message_empty: 'failures.refusals.messageEmpty',
  message_too_long: 'failures.refusals.messageTooLong',
  send_rate_limited: 'failures.refusals.sendRateLimited',
  demo_chat: 'failures.refusals.demoChat',
  account_deactivated: 'errors.refusals.accountDeactivated',
  image_unreadable: 'failures.refusals.imageUnreadable',
  image_too_large: 'failures.refusals.imageTooLarge',
};

const MINUTE_MS = 60_000;

/**
 * A wait as the user says it: "in 15 minutes", "om 15 minuter". Whole minutes rounded up (a shorter time
 * than the one said could fail again), whole hours from two hours on; "later" when the server named none.
 */
export function waitText(ms: number | undefined, t: TFunction): string {
  if (ms === undefined || !Number.isFinite(ms)) return t('errors.wait.later');
  const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
  if (minutes < 120) return t('errors.wait.minutes', { count: minutes });
  return t('errors.wait.hours', { count: Math.ceil(minutes / 60) });
}

/** The refusal in the app's language, from its code; null for an error without a code this build knows. */
export function refusalText(error: EngineError, t: TFunction): string | null {
  const key = error.code !== undefined && Object.hasOwn(REFUSAL_KEYS, error.code) ? REFUSAL_KEYS[error.code] : undefined;
  if (!key) return null;
  return t(key, {
    wait: waitText(error.retryAfterMs, t),
    max: error.code === 'nickname_too_long' ? NICKNAME_MAX : MESSAGE_TEXT_MAX,
  });
}
