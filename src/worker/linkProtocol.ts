import type { CommandName, QueryName } from './names';

/**
 * The leader-election fallback's messages (no SharedWorker: one dedicated worker per tab, design.md §1).
 * A BroadcastChannel cannot transfer a MessagePort, so Comlink's proxies cannot cross it; followers reach
 * the leader's engine through this small request/stream protocol instead.
 *
 * On LEADER_CHANNEL every engine worker of the origin talks about who leads. Each follower then opens its
 * own link channel (linkChannelName) to the leader: only those two listen on it.
 */
export const LEADER_CHANNEL = 'messenger-engine-leader';
/** The Web Lock whose holder is the leader: the one engine with a socket. */
export const LEADER_LOCK = 'messenger-engine-leader';

export const linkChannelName = (linkId: string): string => `messenger-engine-link:${linkId}`;

export type LeaderMessage =
  | { t: 'whoLeads' }
  | { t: 'leader'; leaderId: string }
  | { t: 'hello'; leaderId: string; linkId: string; lock: string | null };

/** Follower → leader, on a link channel. */
export type LinkRequest =
  | { t: 'call'; id: number; name: CommandName; args: unknown[] }
  | { t: 'sub'; id: number; name: QueryName; args: unknown[] }
  | { t: 'unsub'; id: number }
  | { t: 'beat' };

/** Leader → follower, on a link channel. */
export type LinkReply =
  | { t: 'welcome' }
  | { t: 'result'; id: number; ok: true; value: unknown }
  | { t: 'result'; id: number; ok: false; error: unknown }
  | { t: 'next'; id: number; value: unknown }
  | { t: 'error'; id: number; error: unknown }
  | { t: 'complete'; id: number }
  | { t: 'beatAck'; reload: boolean };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function asLeaderMessage(data: unknown): LeaderMessage | null {
  if (!isRecord(data)) return null;
  if (data.t === 'whoLeads') return { t: 'whoLeads' };
  if (data.t === 'leader' && typeof data.leaderId === 'string') return { t: 'leader', leaderId: data.leaderId };
  if (data.t === 'hello' && typeof data.leaderId === 'string' && typeof data.linkId === 'string') {
    const lock = typeof data.lock === 'string' ? data.lock : null;
    return { t: 'hello', leaderId: data.leaderId, linkId: data.linkId, lock };
  }
  return null;
}

/** Requests are checked by the ClientHost (names, argument lists); here only their shape. */
export function asLinkRequest(data: unknown): LinkRequest | null {
  if (!isRecord(data)) return null;
  if (data.t === 'beat') return { t: 'beat' };
  if (typeof data.id !== 'number') return null;
  if (data.t === 'unsub') return { t: 'unsub', id: data.id };
  if ((data.t === 'call' || data.t === 'sub') && typeof data.name === 'string' && Array.isArray(data.args)) {
    return data as LinkRequest;
  }
  return null;
}

export function asLinkReply(data: unknown): LinkReply | null {
  if (!isRecord(data) || typeof data.t !== 'string') return null;
  if (data.t === 'welcome') return { t: 'welcome' };
  if (data.t === 'beatAck') return { t: 'beatAck', reload: data.reload === true };
  if (typeof data.id !== 'number') return null;
  if (['result', 'next', 'error', 'complete'].includes(data.t)) return data as LinkReply;
  return null;
}

/** A random id that works outside secure contexts too (crypto.randomUUID needs one). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
