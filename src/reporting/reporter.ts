/**
 * Error reporting (spec §7, §8; issue 9), the part every bundle carries: whether reporting is on, and a
 * queue for errors that happen before the SDK has loaded. The SDK itself (Sentry) is loaded lazily, only
 * when a DSN was built in and outside development, so it never weighs on the login page's first paint.
 */

export interface ReportingEnv {
  /** `VITE_SENTRY_DSN` at build time; nothing is ever sent without one. */
  dsn: string | undefined;
  /** A development build (`vite dev`): nothing at all is sent. */
  dev: boolean;
  /** `VITE_APP_ENV`, else 'production'. */
  environment: string;
}

/** Who is signed in, as reports are tagged: the user id and the country code, nothing else. */
export type ReportingSession = { userId: number; countryCode: string } | null;

export interface Reporter {
  setSession(session: ReportingSession): void;
  /** Sends `error`; a render error also has the React component stack it happened in. */
  capture(error: unknown, componentStack?: string): void;
}

/** The build's reporting settings (Vite inlines them in the tab's bundle and in the workers'). */
export const BUILD_REPORTING: ReportingEnv = {
  dsn: (import.meta.env.VITE_SENTRY_DSN as string | undefined) || undefined,
  dev: import.meta.env.DEV === true,
  environment: (import.meta.env.VITE_APP_ENV as string | undefined) || 'production',
};

export const reportingEnabled = (env: ReportingEnv): boolean => !env.dev && env.dsn !== undefined;

const EARLY_LIMIT = 20;
let active: Reporter | null = null;
const early: { error: unknown; componentStack?: string }[] = [];
let pendingSession: ReportingSession = null;

/** Reports an error now, or once the SDK has loaded; does nothing when reporting is off. */
export function reportError(error: unknown, env: ReportingEnv = BUILD_REPORTING): void {
  captureOrHold(env, error);
}

/**
 * Reports an error React caught while rendering (an error boundary's `componentDidCatch`, the router's
 * `onCatch`) with its component stack, which the SDK sends through Sentry's React API (sentryTab.ts).
 */
export function reportRenderError(
  error: unknown,
  componentStack: string | null | undefined,
  env: ReportingEnv = BUILD_REPORTING,
): void {
  captureOrHold(env, error, componentStack || undefined);
}

function captureOrHold(env: ReportingEnv, error: unknown, componentStack?: string): void {
  if (!reportingEnabled(env)) return;
  if (active) active.capture(error, componentStack);
  else if (early.length < EARLY_LIMIT) early.push({ error, componentStack });
}

/** Tags later reports with the signed-in user (id and country) or, with null, with nobody. */
export function reportSession(session: ReportingSession): void {
  pendingSession = session;
  active?.setSession(session);
}

/**
 * Holds the errors of `scope` (a window or a worker) that no code catches until the SDK is up, which from
 * then on catches them itself. Returns the function that stops holding them.
 */
export function holdEarlyErrors(
  scope: Pick<typeof globalThis, 'addEventListener' | 'removeEventListener'>,
  env: ReportingEnv = BUILD_REPORTING,
): () => void {
  const onError = (event: Event) => reportError((event as ErrorEvent).error ?? (event as ErrorEvent).message, env);
  const onRejection = (event: Event) => reportError((event as PromiseRejectionEvent).reason, env);
  scope.addEventListener('error', onError);
  scope.addEventListener('unhandledrejection', onRejection);
  return () => {
    scope.removeEventListener('error', onError);
    scope.removeEventListener('unhandledrejection', onRejection);
  };
}

/** Makes `reporter` the active one: what was held goes out, and the session known so far is set. */
export function activate(reporter: Reporter): void {
  active = reporter;
  reporter.setSession(pendingSession);
  for (const { error, componentStack } of early.splice(0)) reporter.capture(error, componentStack);
}
