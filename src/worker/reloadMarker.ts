import type { BuildStamp } from '../engine/api';

/**
 * What a tab remembers, in its sessionStorage, of the reloads the engine asked for (issue 14). A page load
 * claims the engine for its build, as it shows what the server serves now; but a load that only follows an
 * engine-asked reload and lands on another build than the one it was sent to (two builds served at once,
 * during a rolling deploy) must not claim it back, or two builds would take it in turns. And however the
 * builds come, a tab reloads by itself at most MAX_RELOADS times a minute.
 */
const KEY = 'messenger-engine-reloads';
const WINDOW_MS = 60_000;
export const MAX_RELOADS = 3;

interface Marker {
  /** The build the last reload was sent to (null: unknown). */
  into: string | null;
  /** When the engine's reloads of the last minute happened. */
  at: number[];
}

/** Where the marker is kept: the tab's sessionStorage (tests pass their own). */
export type MarkerStore = Pick<Storage, 'getItem' | 'setItem'> | null;

/** sessionStorage, or null where it is unavailable (storage blocked, or not a window). */
function sessionStore(): MarkerStore {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null;
  }
}

function read(store: MarkerStore, now: number): Marker {
  try {
    const raw = store?.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as Partial<Marker>) : null;
    const at = Array.isArray(parsed?.at) ? parsed.at.filter((t): t is number => typeof t === 'number' && now - t < WINDOW_MS) : [];
    return { into: typeof parsed?.into === 'string' ? parsed.into : null, at };
  } catch {
    return { into: null, at: [] };
  }
}

/**
 * Whether this page load claims the engine for `build`: yes, unless it follows an engine-asked reload (of
 * the last minute) that sent it to another build.
 */
export function pageLoadClaims(build: BuildStamp, now = Date.now(), store = sessionStore()): boolean {
  const marker = read(store, now);
  return marker.at.length === 0 || marker.into === null || marker.into === build.id;
}

/**
 * Notes an engine-asked reload into `into`; false when this tab already reloaded MAX_RELOADS times in the
 * last minute, and should not reload again now.
 */
export function noteEngineReload(into: BuildStamp | null, now = Date.now(), store = sessionStore()): boolean {
  const marker = read(store, now);
  if (marker.at.length >= MAX_RELOADS) return false;
  try {
    store?.setItem(KEY, JSON.stringify({ into: into?.id ?? null, at: [...marker.at, now] } satisfies Marker));
  } catch {
    // Without sessionStorage every load claims, as before; nothing else depends on it.
  }
  return true;
}
