import * as Sentry from '@sentry/react';
import { version } from 'react';
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
    capture(error, componentStack) {
      if (componentStack === undefined) {
        Sentry.captureException(error);
        return;
      }
      // A render error, through Sentry's React API as its own ErrorBoundary reports one: the component stack
      // as a linked error (the error's `cause`), and in the event's `react` context beside React's version.
      Sentry.captureReactException(
        error,
        { componentStack },
        {
          mechanism: { handled: true, type: 'auto.function.react.error_boundary' },
          captureContext: { contexts: { react: { version, componentStack } } },
        },
      );
    },
  };
}
