import { request } from 'node:http';

/** Every spelling of /metrics a proxy comparing raw paths would let through and a server might decode back. */
export const METRICS_SPELLINGS = [
  '/metrics',
  '/%6detrics',
  '/%6D%65%74%72%69%63%73',
  '/%256detrics',
  '/METRICS',
  '/Metrics',
  '/metrics/',
  '/metrics//',
  '/./metrics',
  '/metrics/.',
  '//metrics',
  '///metrics',
  '/metrics?x',
  '/metrics?name[]=process_cpu_seconds_total',
  '/api/../metrics',
  '/v1/../metrics',
  '/assets/../metrics',
  '/%2e/metrics',
  '/x/%2e%2e/metrics',
  '/x%2f..%2fmetrics',
  '/metrics;x',
  '/metrics%3Fx',
  '/\\metrics',
  '/metrics#x',
] as const;

/** One request with exactly this target (fetch would resolve dot segments and re-encode it first). */
export function rawRequest(
  base: string,
  target: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: target, method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
