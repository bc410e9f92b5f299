import type { BuildStamp } from '../engine/api';
import { asBuildStamp } from './build';
import type { CommandName, QueryName } from './names';

/**
 * The leader-election fallback's messages (no SharedWorker: one dedicated worker per tab, design.md §1).
 * A BroadcastChannel cannot transfer a MessagePort, so Comlink's proxies cannot cross it; followers reach
 * the leader's engine through this small request/stream protocol instead.
 *
 * On LEADER_CHANNEL every engine worker of the origin (SharedWorkers and dedicated ones, of every build)
 * talks about who leads. Each follower of the leader's build then opens its own link channel
 * (linkChannelName) to the leader: only those two listen on it. A worker of another build never follows;
 * it asks the leader to yield, or its tabs reload (engineHost.ts).
 */
export const LEADER_CHANNEL = 'messenger-engine-leader';
/**
 * The engine's lease: the Web Lock whose holder is the one engine of the profile (the only socket, the only
 * outbox sender), whatever the build. Builds from before the lease used 'messenger-engine-leader' in the
 * fallback only; the storage version they cannot open stops them (idbStorage.ts).
 */
export const LEASE_LOCK = 'messenger-engine-lease';

export const linkChannelName = (linkId: string): string => `messenger-engine-link:${linkId}`;

export type LeaderMessage =
  | { t: 'whoLeads' }
  /** The leader's answer; `build` is null from builds that did not send one (older than the lease). */
  | { t: 'leader'; leaderId: string; build: BuildStamp | null }
  /** A follower's first word; `build` is null from builds that did not send one (older than the lease). */
  | { t: 'hello'; leaderId: string; linkId: string; lock: string | null; build: BuildStamp | null }
  /** A page of another build just loaded: the leader hands the engine over to `build`. */
  | { t: 'yield'; leaderId: string; build: BuildStamp };

/** Follower → leader, on a link channel. */
export type LinkRequest =
  | { t: 'call'; id: number; name: CommandName; args: unknown[] }
  | { t: 'sub'; id: number; name: QueryName; args: unknown[] }
  | { t: 'unsub'; id: number }
  | { t: 'beat' }
  /** The follower lets go of the link (it stands aside, or switches leader): the leader drops it now. */
  | { t: 'bye' };

/** Leader → follower, on a link channel. */
export type LinkReply =
  | { t: 'welcome' }
  | { t: 'result'; id: number; ok: true; value: unknown }
  | { t: 'result'; id: number; ok: false; error: unknown }
  | { t: 'next'; id: number; value: unknown }
  | { t: 'error'; id: number; error: unknown }
  | { t: 'complete'; id: number }
  | { t: 'beatAck'; reload: boolean }
  /** The leader hands over (to `build`) or its storage was upgraded (null): the follower's tabs reload. */
  | { t: 'reload'; build: BuildStamp | null };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

export function asLeaderMessage(data: unknown): LeaderMessage | null {
  if (!isRecord(data)) return null;
  if (data.t === 'whoLeads') return { t: 'whoLeads' };
  if (data.t === 'leader' && typeof data.leaderId === 'string') {
    return { t: 'leader', leaderId: data.leaderId, build: asBuildStamp(data.build) };
  }
  if (data.t === 'yield' && typeof data.leaderId === 'string') {
    const build = asBuildStamp(data.build);
    return build ? { t: 'yield', leaderId: data.leaderId, build } : null;
  }
  if (data.t === 'hello' && typeof data.leaderId === 'string' && typeof data.linkId === 'string') {
    const lock = typeof data.lock === 'string' ? data.lock : null;
    return { t: 'hello', leaderId: data.leaderId, linkId: data.linkId, lock, build: asBuildStamp(data.build) };
  }
  return null;
}

/** Requests are checked by the ClientServer (names, argument lists); here only their shape. */
export function asLinkRequest(data: unknown): LinkRequest | null {
  if (!isRecord(data)) return null;
  if (data.t === 'beat') return { t: 'beat' };
  if (data.t === 'bye') return { t: 'bye' };
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
  if (data.t === 'reload') return { t: 'reload', build: asBuildStamp(data.build) };
  if (typeof data.id !== 'number') return null;
  if (['result', 'next', 'error', 'complete'].includes(data.t)) return data as LinkReply;
  return null;
}

/** A random id that works outside secure contexts too (crypto.randomUUID needs one). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
