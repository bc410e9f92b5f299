import type { SearchDoc } from './documents';

/**
 * What the state changed since the index was last written: the writer takes it whole, so a burst of events
 * is one transaction. A later change of the same item wins over an earlier one (a put after a delete
 * brings it back; a delete after a put takes it away).
 */
export class PendingChanges {
  readonly puts = new Map<string, SearchDoc>();
  readonly drops = new Set<string>();
  /** Deletes that name a message by its stid alone (the store's `stid` index finds it). */
  readonly stids = new Set<string>();
  /** Chats the user left (`chat:<id>`): every document of them goes. */
  readonly groups = new Set<string>();
  /** Channels known only now: their posts seen before (indexed as a chat's messages) become posts. */
  readonly channels = new Map<number, number>();

  get empty(): boolean {
    return this.puts.size + this.drops.size + this.stids.size + this.groups.size + this.channels.size === 0;
  }

  put(doc: SearchDoc): void {
    this.drops.delete(doc.key);
    this.puts.set(doc.key, doc);
  }

  drop(key: string): void {
    this.puts.delete(key);
    this.drops.add(key);
  }

  dropStid(stid: string): void {
    for (const [key, doc] of this.puts) if (doc.stid === stid) this.puts.delete(key);
    this.stids.add(stid);
  }

  dropGroup(group: string): void {
    for (const [key, doc] of this.puts) if (doc.group === group) this.puts.delete(key);
    this.groups.add(group);
  }

  channelKnown(channelId: number, communityId: number): void {
    this.channels.set(channelId, communityId);
  }

  /**
   * The changes of a write that failed, with the ones made since on top (they win): written with the next
   * write. Each side is replayed as `applyChanges` applies it, removals before puts.
   */
  static merged(older: PendingChanges, newer: PendingChanges): PendingChanges {
    const merged = new PendingChanges();
    for (const changes of [older, newer]) {
      for (const group of changes.groups) merged.dropGroup(group);
      for (const stid of changes.stids) merged.dropStid(stid);
      for (const key of changes.drops) merged.drop(key);
      for (const doc of changes.puts.values()) merged.put(doc);
      for (const [channelId, communityId] of changes.channels) merged.channelKnown(channelId, communityId);
    }
    return merged;
  }
}
