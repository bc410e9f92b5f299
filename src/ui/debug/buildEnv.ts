/**
 * What the build says about the debug screen (spec §2, design.md §4): open in develop and QA builds, behind
 * `VITE_DEBUG_PASSWORD` elsewhere, and closed when a production build has no password. The values are
 * inlined by Vite at build time, so this is a speed bump for curious users, not a secret.
 */
export type DebugAccess = { kind: 'open' } | { kind: 'password'; password: string } | { kind: 'closed' };

export interface BuildEnv {
  DEV?: boolean;
  VITE_APP_ENV?: string;
  VITE_DEBUG_PASSWORD?: string;
  [key: string]: unknown;
}

/** The build variable whose value the screen never shows. */
export const SECRET_ENV_KEYS: readonly string[] = ['VITE_DEBUG_PASSWORD'];

const OPEN_ENVIRONMENTS = ['develop', 'development', 'dev', 'qa'];

export function debugAccess(env: BuildEnv): DebugAccess {
  if (openEnvironment(env) !== null) return { kind: 'open' };
  const password = typeof env.VITE_DEBUG_PASSWORD === 'string' ? env.VITE_DEBUG_PASSWORD : '';
  return password !== '' ? { kind: 'password', password } : { kind: 'closed' };
}

/**
 * The environment a develop or QA build names (spec §2: such builds show their version and environment on
 * the account page), or null in production builds, which show neither.
 */
export function openEnvironment(env: BuildEnv): string | null {
  const appEnv = typeof env.VITE_APP_ENV === 'string' ? env.VITE_APP_ENV.trim().toLowerCase() : '';
  if (OPEN_ENVIRONMENTS.includes(appEnv)) return appEnv;
  return env.DEV === true ? 'development' : null;
}

/** The build's variables for display, sorted, with secrets replaced by `hidden`. */
export function envEntries(env: BuildEnv, hidden: string): [string, string][] {
  return Object.keys(env)
    .sort()
    .map((key) => [key, SECRET_ENV_KEYS.includes(key) ? hidden : String(env[key])]);
}

/** This build's variables (Vite's `import.meta.env`). */
export const BUILD_ENV: BuildEnv = import.meta.env as BuildEnv;
