import type { Conversation } from '../../protocol/entities';

/** Fields of a conversation that change with every message (or read), which no message row shows. */
const VOLATILE = new Set<string>(['last_message', 'last_message_time', 'unread_message_count', 'is_unread', 'messages']);

/**
 * Whether two values hold the same data (plain objects, arrays, primitives: what crosses from the engine).
 * Same objects answer at once; otherwise it walks them. A conversation reaches the tab as a structured clone
 * of the engine's (the stream bridge keeps objects only inside arrays), so its members list is a new array
 * of new objects with every emission even when not one member changed.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !sameData(left[key], right[key])) return false;
  return true;
}

/**
 * Whether two snapshots of a chat differ only in what changes with each message (issue 11): then the rows
 * keep the one they have, and none of them renders again.
 */
export function sameForRows(a: Conversation, b: Conversation): boolean {
  if (a === b) return true;
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
    if (!VOLATILE.has(key) && !sameData(left[key], right[key])) return false;
  }
  return true;
}
