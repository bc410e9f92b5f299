import { BUILD_NUMBER } from '../protocol/constants';
import type { ReportingEnv, ReportingSession } from './reporter';
import { type ReportBreadcrumb, type ReportEvent, scrubBreadcrumb, scrubEvent } from './scrub';

/** The options both runtimes give Sentry.init: release = the build number of spec §9, and the scrubbing. */
export function sentryOptions(env: ReportingEnv, runtime: 'tab' | 'engine') {
  return {
    dsn: env.dsn,
    release: BUILD_NUMBER,
    environment: env.environment,
    sendDefaultPii: false,
    initialScope: { tags: { runtime } },
    beforeSend: <E extends ReportEvent>(event: E) => scrubEvent(event),
    beforeBreadcrumb: <B extends ReportBreadcrumb>(crumb: B) => scrubBreadcrumb(crumb),
  };
}

/** The tags of a session: the user id and the country code, or none. */
export function sessionTags(session: ReportingSession): Record<'user_id' | 'country_code', string | undefined> {
  return session ? { user_id: String(session.userId), country_code: session.countryCode } : { user_id: undefined, country_code: undefined };
}
