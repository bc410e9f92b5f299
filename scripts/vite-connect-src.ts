import type { Plugin } from 'vite';
import { BUILD_CONNECT_SRC_FILE, originOf } from '../server/http/cspOrigins.ts';

/** The build variables that name hosts the app's pages call. */
export type ConnectSrcEnv = Partial<Record<'VITE_SENTRY_DSN' | 'VITE_QA_API_BASE' | 'VITE_QA_WS_BASE', unknown>>;

/** The origin of a build variable's address (trimmed, as the client reads it), none when unset. */
function originFrom(env: ConnectSrcEnv, name: keyof ConnectSrcEnv, schemes: readonly string[]): string[] {
  const raw = env[name];
  const value = typeof raw === 'string' ? raw.trim() : '';
  if (value === '') return [];
  const origin = originOf(value, schemes);
  if (origin === null) throw new Error(`${name} must be an ${schemes.join(' or ')} address, got "${value}"`);
  return [origin];
}

/**
 * The origins a build's pages call besides their own (issue 20): the error-reporting DSN's host and the debug
 * screen's QA preset (its API base and websocket base; without a websocket base of its own the preset's
 * socket follows its API base). A value that is no address fails the build, naming the variable.
 */
export function buildConnectSrc(env: ConnectSrcEnv): string[] {
  const http = ['http:', 'https:'];
  const qaApi = originFrom(env, 'VITE_QA_API_BASE', http);
  return [
    ...new Set([
      ...originFrom(env, 'VITE_SENTRY_DSN', http),
      ...qaApi,
      ...qaApi.map((origin) => origin.replace(/^http/, 'ws')),
      ...originFrom(env, 'VITE_QA_WS_BASE', ['ws:', 'wss:']),
    ]),
  ];
}

/**
 * Writes `connect-src.json` into the build: the origins of buildConnectSrc, from the variables Vite builds
 * into the client (its resolved env: the process's and the .env files'). The server serving the build puts
 * them into its Content-Security-Policy (server/http/buildConnectSrc.ts), so what the build calls is allowed
 * however it was built and served.
 */
export function connectSrcPlugin(): Plugin {
  let connectSrc: string[] = [];
  return {
    name: 'messenger-connect-src',
    apply: 'build',
    configResolved(config) {
      // Here, so a value that is no address stops the build before it starts.
      connectSrc = buildConnectSrc(config.env);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: BUILD_CONNECT_SRC_FILE, source: `${JSON.stringify({ connectSrc }, null, 2)}\n` });
    },
  };
}
