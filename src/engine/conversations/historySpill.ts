import type { Message } from '../../protocol/entities';
import type { WriteBatch } from '../storage/batchedWriter';
import type { EngineStorage, StorageOp } from '../storage/storage';

/** At most this many trimmed pages of one chat wait in IndexedDB on each side of its window. */
export const SPILLED_PAGES_PER_SIDE = 50;

type Side = 'older' | 'newer';

/** A trimmed page in the `history` store: where it joins the window again, and its key there. */
interface Spilled {
  key: string;
  /** The window id it sits next to: the window's first (an older page) or last (a newer page) when it was cut. */
  joins: number;
}

/**
 * Pages trimmed off a chat's window (issue 11), kept in IndexedDB's `history` store so the reader coming back
 * gets them from the disk instead of the network. A page is taken back only where it was cut (the window's
 * first, or last, id is still the one it sat next to), and only while nothing may have changed it: an event
 * about a message that is not loaded (an edit, a reaction, a delete, a comment) or a resync forgets the
 * chat's pages, which then come from the server again. The index lives in memory, so a new engine starts
 * with an empty store. Its writes wait for the state's next batch (`takeOps`, through LiveState's
 * `extraOps`): a burst that trims fifty pages costs no transaction of its own (issue 11).
 */
export class HistorySpill {
  private readonly pages = new Map<number, Record<Side, Spilled[]>>();
  /** Keys written but not yet committed, and keys whose write failed: never read. */
  private readonly unwritten = new Set<string>();
  /** Writes waiting for the state's batch, in order; replaced (not emptied) by `clear`. */
  private queued: StorageOp[] = [];

  constructor(
    private readonly storage: EngineStorage,
    private readonly log: (message: string, detail?: unknown) => void,
    /** Asks the state's writer for a batch (LiveState.schedulePersist). */
    private readonly schedule: () => void,
  ) {}

  /** Empties the store (a new engine, a sign-out): the index of an earlier engine is gone. */
  clear(): Promise<void> {
    this.pages.clear();
    this.queued = [];
    this.unwritten.clear();
    return this.storage.writeBatch([{ store: 'history', type: 'clear' }]).catch((e: unknown) => this.log('history not cleared', e));
  }

  /**
   * The waiting writes, for the state's next batch. When that batch fails (the disk is full, say), they are
   * dropped, not tried again: pages are only a shortcut (the server has them), and retrying them would keep
   * failing the state's own writes too. A page whose write failed is forgotten, so it is never read.
   */
  takeOps(): WriteBatch {
    const queue = this.queued;
    const taken = queue.length;
    if (taken === 0) return { ops: [] };
    const ops = queue.slice();
    const settle = (committed: boolean) => {
      if (this.queued !== queue) return;
      queue.splice(0, taken);
      for (const op of ops) {
        if (op.type !== 'put' || this.queuedPut(op.key)) continue;
        if (committed) this.unwritten.delete(op.key);
        else this.forgetPage(op.key);
      }
    };
    return { ops, written: () => settle(true), failed: () => settle(false) };
  }

  /** The page of a put still waiting in the queue (the latest one for the key), if any. */
  private queuedPut(key: string): Message[] | undefined {
    for (let i = this.queued.length - 1; i >= 0; i--) {
      const op = this.queued[i];
      if (op && op.type !== 'clear' && op.key === key) return op.type === 'put' ? (op.value as Message[]) : undefined;
    }
    return undefined;
  }

  private enqueue(ops: readonly StorageOp[]): void {
    this.queued.push(...ops);
    this.schedule();
  }

  /** Keeps a trimmed page (oldest first) that sat next to window id `joins` on its `side`. */
  put(conversationId: number, side: Side, messages: readonly Message[], joins: number): void {
    const first = messages[0];
    if (!first) return;
    const key = `${conversationId}:${side}:${first.id}`;
    const sides = this.sides(conversationId);
    const list = sides[side];
    list.push({ key, joins });
    const ops: StorageOp[] = [{ store: 'history', type: 'put', key, value: messages }];
    // The page farthest from the window goes first: the reader is least likely to come back to it.
    while (list.length > SPILLED_PAGES_PER_SIDE) {
      const dropped = list.shift();
      if (dropped) ops.push({ store: 'history', type: 'delete', key: dropped.key });
    }
    this.unwritten.add(key);
    this.enqueue(ops);
  }

  /** The kept page that sat next to window id `joins` on `side`, or null (then the server has it). */
  async take(conversationId: number, side: Side, joins: number): Promise<Message[] | null> {
    const list = this.pages.get(conversationId)?.[side];
    const page = list?.[list.length - 1];
    if (!list || !page || page.joins !== joins) return null;
    list.pop();
    if (this.unwritten.has(page.key)) {
      // Not written yet (the reader came straight back): the page is still in the queue, and goes from it.
      const queued = this.queuedPut(page.key);
      this.enqueue([{ store: 'history', type: 'delete', key: page.key }]);
      this.unwritten.delete(page.key);
      return queued && queued.length > 0 ? [...queued] : null;
    }
    try {
      const messages = await this.storage.get<Message[]>('history', page.key);
      this.enqueue([{ store: 'history', type: 'delete', key: page.key }]);
      return messages && messages.length > 0 ? messages : null;
    } catch (e) {
      this.log('trimmed history not read', e);
      return null;
    }
  }

  /**
   * The kept page of this chat that holds message `id` (a chat opened at a message, issue 13), or null. Pages
   * are known by their first id, so the one starting nearest below `id` is read and checked.
   */
  async holding(conversationId: number, id: number): Promise<Message[] | null> {
    const sides = this.pages.get(conversationId);
    if (!sides) return null;
    const firstId = (page: Spilled) => Number(page.key.slice(page.key.lastIndexOf(':') + 1));
    const candidates = [...sides.older, ...sides.newer].filter((p) => !this.unwritten.has(p.key) && firstId(p) <= id);
    const best = candidates.sort((a, b) => firstId(b) - firstId(a))[0];
    if (!best) return null;
    try {
      const messages = await this.storage.get<Message[]>('history', best.key);
      return messages?.some((m) => m.id === id) ? messages : null;
    } catch (e) {
      this.log('trimmed history not read', e);
      return null;
    }
  }

  /** Something may have changed a page of this chat that is not loaded: its kept pages are not used again. */
  forget(conversationId: number): void {
    const sides = this.pages.get(conversationId);
    if (!sides) return;
    this.pages.delete(conversationId);
    const keys = [...sides.older, ...sides.newer].map((p) => p.key);
    this.enqueue(keys.map((key): StorageOp => ({ store: 'history', type: 'delete', key })));
  }

  forgetAll(): void {
    for (const id of [...this.pages.keys()]) this.forget(id);
  }

  /** A page whose write failed: it is not in the store, so it must never be read. */
  private forgetPage(key: string): void {
    this.unwritten.delete(key);
    for (const [conversationId, sides] of this.pages) {
      sides.older = sides.older.filter((p) => p.key !== key);
      sides.newer = sides.newer.filter((p) => p.key !== key);
      if (sides.older.length === 0 && sides.newer.length === 0) this.pages.delete(conversationId);
    }
  }

  private sides(conversationId: number): Record<Side, Spilled[]> {
    let sides = this.pages.get(conversationId);
    if (!sides) {
      sides = { older: [], newer: [] };
      this.pages.set(conversationId, sides);
    }
    return sides;
  }
}
