import { afterAll, afterEach } from 'vitest';
import { checkNoCspViolations } from '../support/cspReports';

/**
 * Issue 12: the app works under its Content-Security-Policy. Every e2e test fails when a page of it broke
 * the policy (the browser reported a violation to a test server) during the test; the last check catches
 * reports that came in after a file's last test.
 */
afterEach(() => checkNoCspViolations());
afterAll(() => checkNoCspViolations());
