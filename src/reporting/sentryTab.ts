import * as Sentry from '@sentry/react';
import type { Reporter, ReportingEnv } from './reporter';
import { sentryOptions, sessionTags } from './sentryOptions';

/** Sentry in a tab (loaded lazily): React render errors, unhandled errors and rejections of the page. */
export function startTabSentry(env: ReportingEnv): Reporter {
  Sentry.init(sentryOptions(env, 'tab'));
  return {
    setSession(session) {
      Sentry.setTags(sessionTags(session));
      Sentry.setUser(session ? { id: String(session.userId) } : null);
    },
    capture: (error) => void Sentry.captureException(error),
  };
}
