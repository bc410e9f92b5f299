import { setEntries } from './records';
import { receiptKey } from './types';
import type { EngineEffect, EngineState, ReceiptKind, UnreadRecord } from './types';

/**
 * Receipts this user sends (spec §4 "Receipts"): each (conversation, message, kind) once, ever.
 *
 * A read receipt for message m reads everything up to m on the server (docs/server.md: `read` raises the
 * reader's last-read message and implies delivered), so nothing at or below the conversation's read
 * point (`unread[c].lastReadMessageId`, which only moves up, is persisted, and outlives the
 * conversation) ever needs a receipt: `receiptSent` answers true for it. Only keys above the read point
 * are kept in `sentReceipts`, and moving the read point forgets the keys it covers, so the map holds
 * little more than the delivered receipts of unread messages. A key is recorded when its send is
 * planned, so a replayed event, a second tab or a reload never plans it again.
 */

export function receiptSent(state: EngineState, conversationId: number, messageId: number, kind: ReceiptKind): boolean {
  if (messageId <= (state.unread[conversationId]?.lastReadMessageId ?? 0)) return true;
  return state.sentReceipts[receiptKey(conversationId, messageId, kind)] === true;
}

/** The server treats read as implying delivered, so a read also records delivered. */
function keysFor(conversationId: number, messageId: number, kind: ReceiptKind): string[] {
  const read = receiptKey(conversationId, messageId, 'read');
  const delivered = receiptKey(conversationId, messageId, 'delivered');
  return kind === 'read' ? [read, delivered] : [delivered];
}

/** Records the receipt as sent; the same state when it already was. */
export function recordReceipt(
  state: EngineState,
  conversationId: number,
  messageId: number,
  kind: ReceiptKind,
): EngineState {
  if (receiptSent(state, conversationId, messageId, kind)) return state;
  const entries = keysFor(conversationId, messageId, kind).map((key) => [key, true] as const);
  const sentReceipts = setEntries(state.sentReceipts, entries);
  return sentReceipts === state.sentReceipts ? state : { ...state, sentReceipts };
}

/** Plans one receipt: a `sendReceipt` effect unless this key was ever planned or sent before. */
export function planReceipt(
  state: EngineState,
  effects: EngineEffect[],
  conversationId: number,
  messageId: number,
  kind: ReceiptKind,
  delayMs: number,
): EngineState {
  if (receiptSent(state, conversationId, messageId, kind)) return state;
  effects.push({ type: 'sendReceipt', conversationId, messageId, kind, delayMs });
  return recordReceipt(state, conversationId, messageId, kind);
}

/**
 * Plans a receipt whose message the caller is about to read past (it moves the read point to
 * `messageId` or beyond right after): the read point then records it, so no key is written.
 */
export function planReceiptBeforeRead(
  state: EngineState,
  effects: EngineEffect[],
  conversationId: number,
  messageId: number,
  kind: ReceiptKind,
  delayMs: number,
): void {
  if (!receiptSent(state, conversationId, messageId, kind)) {
    effects.push({ type: 'sendReceipt', conversationId, messageId, kind, delayMs });
  }
}

/** `${conversationId}:${messageId}:${kind}` → its conversation and message ids. */
function parseKey(key: string): { conversationId: number; messageId: number } {
  const [conversation, message] = key.split(':');
  return { conversationId: Number(conversation), messageId: Number(message) };
}

/**
 * Forgets the keys at or below their conversation's read point (of `conversationIds` only, or of every
 * conversation): `receiptSent` answers them from the read point. The same map when nothing goes. Also
 * fit for a map restored from storage that predates this rule.
 */
export function pruneSentReceipts(
  sentReceipts: EngineState['sentReceipts'],
  unread: Readonly<Record<number, UnreadRecord>>,
  conversationIds?: readonly number[],
): EngineState['sentReceipts'] {
  const only = conversationIds ? new Set(conversationIds) : null;
  let next: Record<string, true> | null = null;
  for (const key of Object.keys(sentReceipts)) {
    const { conversationId, messageId } = parseKey(key);
    if (only && !only.has(conversationId)) continue;
    if (messageId > (unread[conversationId]?.lastReadMessageId ?? 0)) continue;
    next ??= { ...sentReceipts };
    delete next[key];
  }
  return next ?? sentReceipts;
}
