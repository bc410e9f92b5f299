import type { FastifyInstance } from 'fastify';

/** Where browsers send Content-Security-Policy violation reports (the policy's `report-uri`). */
export const CSP_REPORT_PATH = '/csp-report';

/** What the server keeps of one violation report. */
export interface CspReport {
  documentUri: string;
  violatedDirective: string;
  blockedUri: string;
  sourceFile: string;
  lineNumber: number | null;
  sample: string;
}

const REPORT_MAX_BYTES = 16 * 1024;

/** A URL without its query: a blocked websocket URL carries the token there. */
const withoutQuery = (value: unknown): string => (typeof value === 'string' ? value.replace(/[?#].*$/s, '') : '');

/** The fields of a `report-uri` body (`{"csp-report": {...}}`), or null for anything else. */
function readCspReport(body: unknown): CspReport | null {
  const report = (body as { 'csp-report'?: unknown } | null)?.['csp-report'];
  if (typeof report !== 'object' || report === null) return null;
  const r = report as Record<string, unknown>;
  const directive = r['effective-directive'] ?? r['violated-directive'];
  return {
    documentUri: withoutQuery(r['document-uri']),
    violatedDirective: typeof directive === 'string' ? directive : '',
    blockedUri: withoutQuery(r['blocked-uri']),
    sourceFile: withoutQuery(r['source-file']),
    lineNumber: typeof r['line-number'] === 'number' ? r['line-number'] : null,
    sample: typeof r['script-sample'] === 'string' ? r['script-sample'].slice(0, 40) : '',
  };
}

/**
 * The endpoint of the policy's `report-uri`. Reports come from any page (nobody signs them), so they are
 * small, answered 204 whatever they hold, and only passed on (logged by default, kept by tests).
 */
export async function registerCspReports(app: FastifyInstance, onReport: (report: CspReport) => void): Promise<void> {
  await app.register(async (scope) => {
    // Only here: the rest of the API takes no such bodies. (The policy sets `report-uri` only, so the
    // Reporting API's application/reports+json never comes.) Unreadable JSON is no report, not an error.
    scope.addContentTypeParser('application/csp-report', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string));
      } catch {
        done(null, null);
      }
    });
    scope.post(CSP_REPORT_PATH, { bodyLimit: REPORT_MAX_BYTES }, async (request, reply) => {
      const report = readCspReport(request.body);
      if (report) onReport(report);
      return reply.status(204).send();
    });
  });
}
