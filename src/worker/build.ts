import type { BuildStamp } from '../engine/api';

/** Set by vite.config.ts for every build; absent where the code runs unbundled (Node tests). */
declare const __MESSENGER_BUILD__: BuildStamp | undefined;

/** This build of the app: tabs and engines of different builds never share an engine (issue 14). */
export const BUILD: BuildStamp =
  typeof __MESSENGER_BUILD__ !== 'undefined' ? __MESSENGER_BUILD__ : { id: 'unbundled', time: 0 };

/** Reads a build stamp that crossed a channel; null when it is not one. */
export function asBuildStamp(value: unknown): BuildStamp | null {
  if (typeof value !== 'object' || value === null) return null;
  const { id, time } = value as Record<string, unknown>;
  return typeof id === 'string' && typeof time === 'number' ? { id, time } : null;
}
