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
 * chat's own messages count (`isOwn`): message ids are global, and a read point elsewhere says nothing here.
 * A walk over the few marked messages, not over every loaded message (issue 11).
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

/** How far every other member got: the highest own message all of them read, and all of them received. */
export interface ReceiptLevels {
  read: number;
  delivered: number;
}

/** The levels of a chat with these other members, worked out once for all its rows. */
export function receiptLevels(marks: Watermarks, others: readonly number[]): ReceiptLevels {
  // With nobody else, nothing is delivered or read: every own message shows as sent.
  if (others.length === 0) return { read: 0, delivered: 0 };
  const lowest = (map: ReadonlyMap<number, number>) => Math.min(...others.map((userId) => map.get(userId) ?? 0));
  return { read: lowest(marks.read), delivered: lowest(marks.delivered) };
}

/** Read when every other member read it; delivered when it reached every one of them; else sent. */
export function receiptStatus(messageId: number, levels: ReceiptLevels): ReceiptStatus {
  if (messageId <= levels.read) return 'read';
  if (messageId <= levels.delivered) return 'delivered';
  return 'sent';
}
