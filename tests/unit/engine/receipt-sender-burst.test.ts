import { describe, expect, it } from 'vitest';
import type { RestClient } from '../../../src/engine/rest';
import { ReceiptSender } from '../../../src/engine/messages/receiptSender';
import { MemoryStorage } from '../../../src/engine/storage/storage';
import { ManualEngineClock } from './support/fakeEngine';

/** The injected clock, counting the timers set on it. */
class CountingClock extends ManualEngineClock {
  set = 0;
  constructor() {
    super();
    const setTimeout = this.setTimeout;
    this.setTimeout = (fn, ms) => {
      this.set += 1;
      return setTimeout(fn, ms);
    };
  }
}

/** Lets the sends the timer started finish: each is a chain of promises that end within one macrotask. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function sender(clock: ManualEngineClock, sent: string[]) {
  const rest = {
    sendReceipt: async (conversationId: number, messageId: number, kind: string) => {
      sent.push(`${conversationId}/${messageId} ${kind}`);
      return {};
    },
  } as unknown as RestClient;
  return new ReceiptSender({
    storage: new MemoryStorage(),
    rest: () => rest,
    clock,
    signedIn: () => true,
    log: () => undefined,
    changed: () => undefined,
    isOpen: () => true,
    withdrawn: () => undefined,
  });
}

describe('the receipt sender under a burst (issue 24)', () => {
  it('sets one timer for a thousand receipts queued together, not one per receipt, and sends each once in order', async () => {
    const clock = new CountingClock();
    const sent: string[] = [];
    const receipts = sender(clock, sent);
    for (let id = 1; id <= 1000; id++) {
      receipts.enqueue({ conversationId: 7, messageId: id, kind: 'delivered' }, 0);
      receipts.enqueue({ conversationId: 7, messageId: id, kind: 'read' }, 500);
    }
    // Each receipt queued used to clear the timer and set it again, after looking through the whole queue.
    expect(clock.set).toBe(1);
    await clock.advance(0);
    await settle();
    expect(sent.filter((s) => s.endsWith('delivered'))).toHaveLength(1000);
    expect(sent.filter((s) => s.endsWith('read'))).toHaveLength(0);
    await clock.advance(500);
    await settle();
    expect(sent).toHaveLength(2000);
    expect(sent.slice(1000, 1003)).toEqual(['7/1 read', '7/2 read', '7/3 read']);
    await receipts.stop();
  });

  it('sets the timer again for a receipt due before the one it waits for', async () => {
    const clock = new CountingClock();
    const sent: string[] = [];
    const receipts = sender(clock, sent);
    receipts.enqueue({ conversationId: 7, messageId: 1, kind: 'read' }, 500);
    receipts.enqueue({ conversationId: 7, messageId: 2, kind: 'delivered' }, 0);
    expect(clock.set).toBe(2);
    await clock.advance(0);
    await settle();
    expect(sent).toEqual(['7/2 delivered']);
    await clock.advance(500);
    await settle();
    expect(sent).toEqual(['7/2 delivered', '7/1 read']);
    await receipts.stop();
  });
});
