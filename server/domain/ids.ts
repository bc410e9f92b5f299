import { randomBytes } from 'node:crypto';

/** String ids (`stid`) are random, so they reveal neither counts nor order. */
export function newStid(prefix: string): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

/** Accepts a numeric id or a stid in a path segment. */
export function parseIdOrStid(raw: string): { id: number } | { stid: string } | null {
  if (/^\d{1,15}$/.test(raw)) return { id: Number(raw) };
  if (/^[a-z]{1,4}_[A-Za-z0-9_-]{6,32}$/.test(raw)) return { stid: raw };
  return null;
}

/** Epoch seconds as a string, the wire form of created_at (spec §3). */
export function epochSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}
