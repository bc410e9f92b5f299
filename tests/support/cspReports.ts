import type { CspReport } from '../../server/http/cspReports';

/**
 * Content-Security-Policy violation reports received by the test servers of this test file
 * (startTestServer passes them here), until a check takes them. The e2e project's setup
 * (tests/e2e/csp-setup.ts) checks after every test, so a test whose pages break the policy fails.
 */
const received: CspReport[] = [];

export function recordCspReport(report: CspReport): void {
  received.push(report);
}

/** Throws, naming each violation, when any report arrived since the last check. */
export function checkNoCspViolations(): void {
  const reports = received.splice(0);
  if (reports.length === 0) return;
  const lines = reports.map(
    (r) => `${r.violatedDirective} blocked ${r.blockedUri || '(nothing named)'} in ${r.documentUri}` +
      (r.sourceFile ? ` (${r.sourceFile}:${r.lineNumber ?? '?'})` : '') + (r.sample ? ` "${r.sample}"` : ''),
  );
  throw new Error(`Content-Security-Policy violations:\n${lines.join('\n')}`);
}
