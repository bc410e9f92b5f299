import type { Message } from '../../../protocol/entities';

/**
 * Receipts other people sent for the signed-in user's messages (spec §4 `message_dlr2`), by message id:
 * who marked it delivered and who read it. The engine keeps them (EngineState.receipts).
 */
export type ReceiptMarksView = Readonly<Record<number, { delivered: readonly number[]; read: readonly number[] }>>;

export type ReceiptStatus = 'sent' | 'delivered' | 'read';

/** Per other member, the highest own message of this chat they marked delivered and read. */
export interface Watermarks {
  delivered: ReadonlyMap<number, number>;
  read: ReadonlyMap<number, number>;
}

/**
 * A read receipt for message m reads everything up to m (docs/server.md: `read` raises the reader's
 * last-read message), so a member who read a later own message has read the earlier ones too. Only this
 * chat's own messages count: message ids are global, and a read point elsewhere says nothing here.
 */
export function watermarks(ownMessages: readonly Message[], marks: ReceiptMarksView): Watermarks {
  const own = new Set(ownMessages.map((m) => m.id));
  return watermarksOf(marks, (id) => own.has(id));
}

/**
 * The same from the marks alone (issue 11): a walk over the few marked messages, not over every loaded
 * message, with `isOwn` telling this chat's own messages.
 */
export function watermarksOf(marks: ReceiptMarksView, isOwn: (messageId: number) => boolean): Watermarks {
  const delivered = new Map<number, number>();
  const read = new Map<number, number>();
  const raise = (map: Map<number, number>, userId: number, id: number) => {
    if ((map.get(userId) ?? 0) < id) map.set(userId, id);
  };
  for (const key of Object.keys(marks)) {
    const id = Number(key);
    const mark = marks[id];
    if (!mark || !isOwn(id)) continue;
    for (const userId of mark.delivered) raise(delivered, userId, id);
    for (const userId of mark.read) {
      raise(read, userId, id);
      raise(delivered, userId, id);
    }
  }
  return { delivered, read };
}

/** Read when every other member read it; delivered when it reached every one of them; else sent. */
export function receiptStatus(messageId: number, marks: Watermarks, others: readonly number[]): ReceiptStatus {
  if (others.length === 0) return 'sent';
  const all = (map: ReadonlyMap<number, number>) => others.every((userId) => (map.get(userId) ?? 0) >= messageId);
  if (all(marks.read)) return 'read';
  if (all(marks.delivered)) return 'delivered';
  return 'sent';
}
