import * as Sentry from '@sentry/browser';
import type { Reporter, ReportingEnv } from './reporter';
import { sentryOptions, sessionTags } from './sentryOptions';

/** Sentry in the engine's worker (loaded lazily): the engine's unhandled errors and the ones it reports. */
export function startEngineSentry(env: ReportingEnv): Reporter {
  Sentry.init(sentryOptions(env, 'engine'));
  return {
    setSession(session) {
      Sentry.setTags(sessionTags(session));
      Sentry.setUser(session ? { id: String(session.userId) } : null);
    },
    capture: (error) => void Sentry.captureException(error),
  };
}
