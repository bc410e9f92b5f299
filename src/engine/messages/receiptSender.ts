import type { WriteBatch } from '../storage/batchedWriter';
import type { EngineClock } from '../clock';
import { isEngineError } from '../errors';
import type { RestClient } from '../rest';
import type { ReceiptKind } from '../state/types';
import type { EngineStorage } from '../storage/storage';

export interface PendingReceipt {
  conversationId: number;
  messageId: number;
  kind: ReceiptKind;
  /** Epoch ms from which it may be sent (the 500 ms read delay of spec §4). */
  dueAt: number;
  /** A delayed read of a message that came into an open chat: due only if the chat is still open then. */
  whileOpen?: boolean;
}

const STORE_KEY = 'pendingReceipts';
export const RECEIPT_RETRY_MS = 5_000;

/**
 * Sends the receipts the reducer planned. They are persisted until the server has them, so a failed call
 * or a worker that dies during the read delay does not lose one: the reducer has already marked it as
 * sent, and would never plan it again.
 */
export class ReceiptSender {
  private queue: PendingReceipt[] = [];
  private timer: unknown = null;
  /** When the timer set goes off (epoch ms), while there is one. */
  private timerAt = 0;
  /** The send loop while it runs; `stop` waits for it. */
  private draining: Promise<void> | null = null;
  private dirty = false;
  /** Counts changes of the queue, so a write of an older queue does not mark a newer one as stored. */
  private version = 0;
  private stopped = false;
  /** The highest read sent per conversation in this run. */
  private readonly readSent = new Map<number, number>();

  constructor(
    private readonly deps: {
      storage: EngineStorage;
      rest: () => RestClient;
      clock: EngineClock;
      signedIn: () => boolean;
      log: (message: string, detail?: unknown) => void;
      /** The queue changed: the engine writes it with the state, in the same batch as the marks it goes with. */
      changed: () => void;
      /** Whether the conversation is open in a visible, focused tab now. */
      isOpen: (conversationId: number) => boolean;
      /** A delayed read whose chat closed within the delay was dropped: the message is unread again. */
      withdrawn: (receipt: PendingReceipt) => void;
    },
  ) {}

  /**
   * The write that stores the queue when it changed since the last stored one; the engine adds it to its
   * state batch. The queue counts as stored only once that batch committed: a failed one is written again.
   */
  takeOps(): WriteBatch {
    if (!this.dirty) return { ops: [] };
    const version = this.version;
    return {
      ops: [{ store: 'meta', type: 'put', key: STORE_KEY, value: this.queue.map((r) => ({ ...r })) }],
      written: () => {
        if (this.version === version) this.dirty = false;
      },
    };
  }

  async load(): Promise<void> {
    this.queue = (await this.deps.storage.get<PendingReceipt[]>('meta', STORE_KEY)) ?? [];
    this.schedule();
  }

  enqueue(receipt: Omit<PendingReceipt, 'dueAt'>, delayMs: number): void {
    const whileOpen = receipt.kind === 'read' && delayMs > 0;
    const dueAt = this.deps.clock.now() + delayMs;
    this.queue.push({ ...receipt, dueAt, ...(whileOpen ? { whileOpen } : {}) });
    this.markChanged();
    // A timer that goes off before this one is due finds it then (the drain schedules what is left): a burst
    // of a thousand messages queues two thousand receipts, and looking through the queue at each was quadratic.
    if (this.timer === null || this.timerAt > dueAt) this.schedule();
  }

  /**
   * The engine is going away: nothing is sent after it, by a timer or by the loop running now (the queue
   * stays in storage for the next start). Resolves once the loop has ended.
   */
  async stop(): Promise<void> {
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.stopped = true;
    await this.draining;
  }

  /** Sign-out: receipts of the old session are not sent under a new one. */
  async clear(): Promise<void> {
    this.queue = [];
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    this.version += 1;
    await this.deps.storage.writeBatch([{ store: 'meta', type: 'delete', key: STORE_KEY }]);
  }

  private schedule(): void {
    if (this.timer !== null) this.deps.clock.clearTimeout(this.timer);
    this.timer = null;
    if (this.queue.length === 0 || this.stopped) return;
    let next = Infinity;
    for (const r of this.queue) next = Math.min(next, r.dueAt);
    this.timerAt = next;
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      void this.drain();
    }, Math.max(0, next - this.deps.clock.now()));
  }

  private drain(): Promise<void> {
    if (this.draining || !this.deps.signedIn() || this.stopped) return Promise.resolve();
    const run = this.sendDue().finally(() => {
      this.draining = null;
      this.schedule();
    });
    this.draining = run;
    return run;
  }

  private async sendDue(): Promise<void> {
    const now = this.deps.clock.now();
    for (const receipt of this.queue.filter((r) => r.dueAt <= now)) {
      if (this.stopped) break;
      // Spec §4: the read after 500 ms is for a chat that is open; one closed meanwhile reads nothing.
      if (receipt.whileOpen && !this.deps.isOpen(receipt.conversationId) && !this.readCovers(receipt)) {
        this.remove(receipt);
        this.deps.withdrawn(receipt);
        continue;
      }
      try {
        await this.deps.rest().sendReceipt(receipt.conversationId, receipt.messageId, receipt.kind);
        this.remove(receipt);
        if (receipt.kind === 'read') {
          const sent = this.readSent.get(receipt.conversationId) ?? 0;
          this.readSent.set(receipt.conversationId, Math.max(sent, receipt.messageId));
        }
      } catch (error) {
        const status = isEngineError(error) ? error.status : 0;
        if (status >= 400 && status < 500 && status !== 401) {
          // Refused for good (the message was deleted, say): nothing to retry.
          this.remove(receipt);
        } else {
          receipt.dueAt = this.deps.clock.now() + RECEIPT_RETRY_MS;
          this.deps.log('receipt failed; will retry', error);
        }
      }
    }
    this.markChanged();
  }

  /** Receipts go out in the order they came, so the one sent is found near the front (no copy of the queue per receipt). */
  private remove(receipt: PendingReceipt): void {
    const at = this.queue.indexOf(receipt);
    if (at >= 0) this.queue.splice(at, 1);
  }

  /** A read sent for this message or a later one (it reads everything before it) leaves nothing to withdraw. */
  private readCovers(receipt: PendingReceipt): boolean {
    return (this.readSent.get(receipt.conversationId) ?? 0) >= receipt.messageId;
  }

  private markChanged(): void {
    this.dirty = true;
    this.version += 1;
    this.deps.changed();
  }
}
