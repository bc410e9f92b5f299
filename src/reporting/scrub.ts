/**
 * What an error report may carry (issue 9, design.md §4): never the Auth-Token, the websocket's token, a
 * PIN, a phone number, or the text of a message, post or comment. These rules are pure, so they are tested
 * apart from the SDK that applies them (sentry.ts: `beforeSend`, `beforeBreadcrumb`).
 */

const FILTERED = '[Filtered]';

/** Parameters that hold secrets or personal data (`token=…`), in a URL's query or quoted in a text. */
const SECRET_PARAMS = /((?:^|[?&\s;,(])(?:token|auth[-_]?token|pin|phone(?:_nr)?|msisdn)=)[^&#\s]*/gi;
/** Phone numbers: a run of 8 or more digits, with an optional + and the usual separators. */
const PHONE = /\+?\d(?:[\s-]?\d){7,}/g;
/** A PIN named as such in a text ("pin: 1234", "PIN=1234"). */
const PIN = /(\bpin\b\W{0,3})\d{4}\b/gi;

/** A text with the secrets and personal data it may hold replaced. */
export function scrubText(text: string): string {
  return text.replace(SECRET_PARAMS, `$1${FILTERED}`).replace(PIN, `$1${FILTERED}`).replace(PHONE, FILTERED);
}

/** A URL without its secret parameters (and with no phone number in its path, say /v1/users/+4670…). */
export function scrubUrl(url: string): string {
  return scrubText(url);
}

/** The parts of an SDK event this scrubber reads and rewrites (Sentry's shapes, kept structural). */
export interface ReportEvent {
  message?: string;
  exception?: { values?: { value?: string; type?: string }[] };
  request?: { url?: string; headers?: Record<string, string>; cookies?: unknown; query_string?: unknown; data?: unknown };
  breadcrumbs?: ReportBreadcrumb[];
  user?: Record<string, unknown>;
  extra?: Record<string, unknown>;
  contexts?: Record<string, unknown>;
}

export interface ReportBreadcrumb {
  category?: string;
  message?: string;
  data?: Record<string, unknown>;
}

/** Navigation and network steps, with their URLs scrubbed; console lines and UI steps may quote what people wrote. */
const KEPT_CATEGORIES = new Set(['navigation', 'fetch', 'xhr']);

/** A breadcrumb as it may be kept, or null to drop it. */
export function scrubBreadcrumb<B extends ReportBreadcrumb>(crumb: B): B | null {
  if (!crumb.category || !KEPT_CATEGORIES.has(crumb.category)) return null;
  const data: Record<string, unknown> = {};
  for (const key of ['url', 'from', 'to', 'method', 'status_code'] as const) {
    const value = crumb.data?.[key];
    if (typeof value === 'string') data[key] = scrubUrl(value);
    else if (typeof value === 'number') data[key] = value;
  }
  const { message: _message, ...rest } = crumb;
  return { ...rest, data } as B;
}

/** An event as it may be sent: URLs and texts scrubbed, no headers, cookies, bodies or personal fields. */
export function scrubEvent<E extends ReportEvent>(event: E): E {
  const next: E = { ...event };
  if (next.message) next.message = scrubText(next.message);
  if (next.exception?.values) {
    next.exception = {
      ...next.exception,
      values: next.exception.values.map((v) => (v.value ? { ...v, value: scrubText(v.value) } : v)),
    };
  }
  if (next.request) {
    next.request = next.request.url ? { url: scrubUrl(next.request.url) } : {};
  }
  if (next.breadcrumbs) {
    next.breadcrumbs = next.breadcrumbs.map((c) => scrubBreadcrumb(c)).filter((c): c is ReportBreadcrumb => c !== null);
  }
  // Only the user id (a tag and the user's id): never a phone number, an IP address or a name.
  if (next.user) next.user = typeof next.user.id === 'string' || typeof next.user.id === 'number' ? { id: next.user.id } : {};
  delete next.extra;
  return next;
}
