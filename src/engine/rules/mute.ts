import type { ConversationMute } from '../../protocol/entities';

/** Mute rules (spec §2 chat settings, issue 9; the values are the server's, docs/server.md). */

/** The choices chat settings offer: off, 8 hours, 1 week, always. The engine takes every server type. */
export const MUTE_CHOICES = ['unmute', '8h', '1w', 'forever'] as const;
export type MuteChoice = (typeof MUTE_CHOICES)[number];

/**
 * Whether a chat is muted at `nowMs`: a mute without an end lasts until unmuted; one with an end is over
 * at that moment without another call. A conversation cached before mutes were part of it has none.
 */
export function isMuted(mute: ConversationMute | null | undefined, nowMs: number): boolean {
  if (!mute) return false;
  if (mute.until === null) return true;
  return Number(mute.until) * 1000 > nowMs;
}

/** The end of a mute in ms, or null for one until unmuted (or none). */
export function muteEndsAt(mute: ConversationMute | null | undefined): number | null {
  if (!mute || mute.until === null) return null;
  return Number(mute.until) * 1000;
}
