import type { Channel } from '../../protocol/entities';

/** A community's channels as its details list them: the announcements channel first, then the server's order. */
export function orderChannels(channels: readonly Channel[]): Channel[] {
  return [...channels.filter((c) => c.is_community_announcements), ...channels.filter((c) => !c.is_community_announcements)];
}
