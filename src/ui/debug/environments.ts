import type { HostOverrides } from '../../engine/api';
import { BUILD_ENV } from './buildEnv';

/**
 * The environment presets of the debug screen (spec §2). Production and dev are served from the app's own
 * origin (the engine's default, no override); QA lives where the build says (`VITE_QA_API_BASE`, and
 * optionally `VITE_QA_WS_BASE`), and is unavailable in a build that does not say.
 */
export type PresetId = 'production' | 'qa' | 'dev';

export interface Preset {
  id: PresetId;
  /** null: no override, the app's own origin. undefined: not configured in this build. */
  apiBase: string | null | undefined;
  wsBase: string | null;
}

const env = (key: string): string | undefined => {
  const value = BUILD_ENV[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
};

export const PRESETS: readonly Preset[] = [
  { id: 'production', apiBase: null, wsBase: null },
  { id: 'qa', apiBase: env('VITE_QA_API_BASE'), wsBase: env('VITE_QA_WS_BASE') ?? null },
  { id: 'dev', apiBase: null, wsBase: null },
];

export type HostsCheck =
  | { ok: true; hosts: HostOverrides }
  | { ok: false; field: 'apiBase' | 'wsBase'; error: 'invalidApiBase' | 'invalidWsBase' };

function base(raw: string, protocols: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (!protocols.includes(url.protocol) || url.username || url.password) return null;
  return url.href.replace(/\/+$/, '');
}

/** Custom hosts: an http(s) API base, and a ws(s) socket base or none (then it follows the API base). */
export function checkCustomHosts(apiBase: string, wsBase: string): HostsCheck {
  const api = base(apiBase, ['http:', 'https:']);
  if (!api) return { ok: false, field: 'apiBase', error: 'invalidApiBase' };
  if (wsBase.trim() === '') return { ok: true, hosts: { apiBase: api, wsBase: null } };
  const ws = base(wsBase, ['ws:', 'wss:']);
  if (!ws) return { ok: false, field: 'wsBase', error: 'invalidWsBase' };
  return { ok: true, hosts: { apiBase: api, wsBase: ws } };
}
