import { setEntries } from './records';
import { receiptKey } from './types';
import type { EngineEffect, EngineState, ReceiptKind } from './types';

/**
 * Receipts this user sends (spec §4 "Receipts"): each (conversation, message, kind) once, ever. The key
 * is recorded in `sentReceipts` when the send is planned, so a replayed event, a second tab or a reload
 * never plans it again. The server treats read as implying delivered (docs/server.md), so a read also
 * records delivered: a delivered receipt after a read would be a wasted call.
 */
function keysFor(conversationId: number, messageId: number, kind: ReceiptKind): string[] {
  const read = receiptKey(conversationId, messageId, 'read');
  const delivered = receiptKey(conversationId, messageId, 'delivered');
  return kind === 'read' ? [read, delivered] : [delivered];
}

export function receiptSent(state: EngineState, conversationId: number, messageId: number, kind: ReceiptKind): boolean {
  return state.sentReceipts[receiptKey(conversationId, messageId, kind)] === true;
}

/** Records the receipt as sent; the same state when it already was. */
export function recordReceipt(
  state: EngineState,
  conversationId: number,
  messageId: number,
  kind: ReceiptKind,
): EngineState {
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
