import type { StoreTx } from '../storage/storage';
import { dropSlice, dropStart, type IndexPosition, TRIM_START, trimSlice } from './indexRemoval';
import { REMOVAL_SLICE } from './indexWriter';
import type { PostingIndex } from './postingIndex';

export interface RemovalsDeps {
  /** Runs `slice` in the index's queue, a timer turn apart, until it says it is done (false: the engine stopped). */
  inSlices(slice: (index: PostingIndex) => Promise<boolean>): Promise<boolean>;
  /** One write transaction over the documents and the index. */
  write<T>(index: PostingIndex, work: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** How many items of each chat the device keeps now (Infinity: everything). */
  kept(): number;
  /** Answers changed (a trim took documents). */
  changed(): void;
  stopped(): boolean;
}

/**
 * The removals of the search that go a slice at a time (issue 24, indexRemoval.ts): chats dropped (left or
 * deleted; the index marks them and leaves them out of answers at once) and the trim to the kept history.
 * One loop runs them, drops first, and remembers where each goes on.
 */
export class Removals {
  private running = false;
  /** Asked for while the loop ran: it looks again once it ends. */
  private again = false;
  /** Where each chat being dropped goes on (from its start after a restart). */
  private readonly dropCursors = new Map<number, IndexPosition>();
  /** Where the trim to the kept history goes on; null when none is wanted. */
  private trimFrom: IndexPosition | null = null;
  /** Moves on when a trim starts again from the first chat: a slice of the one before does not move it on. */
  private trimRound = 0;

  constructor(private readonly deps: RemovalsDeps) {}

  /** Chats the index marked in a write just in: each is gone through from its start. */
  dropped(chats: Iterable<number>): void {
    for (const chat of chats) this.dropCursors.delete(chat);
    this.start();
  }

  /** Trims every chat and channel to what is kept, from the first (nothing when everything is kept). */
  trimAll(): void {
    if (this.deps.kept() === Infinity) return;
    this.trimFrom = TRIM_START;
    this.trimRound += 1;
    this.start();
  }

  /** Whether a trim goes through the chats: a write then leaves trimming to it (the same work twice else). */
  get trimming(): boolean {
    return this.trimFrom !== null;
  }

  /** Sign-out: the index is cleared, and nothing of the user who left goes on. */
  reset(): void {
    this.dropCursors.clear();
    this.trimFrom = null;
    this.trimRound += 1;
  }

  /** Starts the loop, or has it look again once it ends. */
  start(): void {
    if (this.deps.stopped()) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    this.again = false;
    void this.deps.inSlices((index) => this.slice(index)).then(() => {
      this.running = false;
      if (this.again) this.start();
    });
  }

  /**
   * One slice of what is to be removed: a dropped chat's documents first (answers already leave them out),
   * then the trim to the kept history. True when nothing is left.
   */
  private async slice(index: PostingIndex): Promise<boolean> {
    const [drop] = index.dropped;
    if (drop) {
      const from = this.dropCursors.get(drop.chat) ?? dropStart(drop.chat);
      const next = await this.deps.write(index, (tx) => dropSlice(tx, index, drop.chat, from, REMOVAL_SLICE));
      if (next) {
        this.dropCursors.set(drop.chat, next);
      } else {
        this.dropCursors.delete(drop.chat);
        index.dropEnded(drop.chat);
      }
      return false;
    }
    const limit = this.deps.kept();
    const from = this.trimFrom;
    if (limit === Infinity) this.trimFrom = null;
    if (from === null || limit === Infinity) return true;
    const round = this.trimRound;
    const { next, removed } = await this.deps.write(index, (tx) => trimSlice(tx, index, limit, from, REMOVAL_SLICE));
    if (round === this.trimRound) this.trimFrom = next;
    if (removed) this.deps.changed();
    return this.trimFrom === null;
  }
}
