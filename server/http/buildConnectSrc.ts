import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config';
import { BUILD_CONNECT_SRC_FILE, CONNECT_SCHEMES, originOf } from './cspOrigins';

export { BUILD_CONNECT_SRC_FILE };

/**
 * The origins the build of the client in `clientDir` calls besides its own (issue 20): its error reporting's
 * (the host of `VITE_SENTRY_DSN`) and its debug screen's QA preset (`VITE_QA_API_BASE`, `VITE_QA_WS_BASE`),
 * as the build wrote them (scripts/vite-connect-src.ts writes `connect-src.json`, `{"connectSrc": [origins]}`).
 * Read once when the server starts, so the policy follows the build it serves, however it was built. No file
 * (a build from before it, no client): none. A file that is no such list of origins: a ConfigError naming it,
 * and the server does not start.
 */
export function readBuildConnectSrc(clientDir: string | undefined): string[] {
  if (clientDir === undefined) return [];
  const file = path.join(clientDir, BUILD_CONNECT_SRC_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError(`${file} cannot be read: ${(error as Error).message}`);
  }
  const malformed = (why: string) =>
    new ConfigError(`${file} is malformed (${why}); it must be {"connectSrc": ["https://host", …]}: build the client again`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw malformed('not JSON');
  }
  const list = (parsed as { connectSrc?: unknown } | null)?.connectSrc;
  if (!Array.isArray(list)) throw malformed('no "connectSrc" list');
  return (list as unknown[]).map((entry) => {
    // Each an origin as it is, and nothing else: nothing may ride along into the header.
    if (typeof entry !== 'string' || originOf(entry, CONNECT_SCHEMES) !== entry) {
      throw malformed(`${JSON.stringify(entry)} is not an origin`);
    }
    return entry;
  });
}
