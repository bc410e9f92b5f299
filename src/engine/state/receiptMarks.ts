import type { ReceiptStatus } from '../../protocol/entities';
import { setEntry } from './records';
import type { EngineState, ReceiptMarks } from './types';
import type { ReceiptMarksView } from '../contract/types';

/** Receipts other people sent for the signed-in user's messages (spec §4 `message_dlr2`, GET …/dlrs). */

export function addMark(marks: ReceiptMarks | undefined, type: 'delivered' | 'read', userId: number): ReceiptMarks {
  const base = marks ?? { delivered: [], read: [] };
  // The server counts read as delivered too, so a read mark also shows as delivered.
  const types: ('delivered' | 'read')[] = type === 'read' ? ['delivered', 'read'] : ['delivered'];
  let next = base;
  for (const t of types) {
    if (!next[t].includes(userId)) next = { ...next, [t]: [...next[t], userId] };
  }
  return next;
}

/** Adds every receipt of a list (the dlrs answer); a receipt already known changes nothing. */
export function addMarks(state: EngineState, statuses: readonly ReceiptStatus[]): EngineState {
  let receipts = state.receipts;
  for (const status of statuses) {
    const marks = receipts[status.message_id];
    const next = addMark(marks, status.type, status.user_id);
    if (next !== marks) receipts = setEntry(receipts, status.message_id, next);
  }
  return receipts === state.receipts ? state : { ...state, receipts };
}

const NONE: ReceiptMarksView = {};

/**
 * A memoised selector of one conversation's marks: receipts are kept by message id for every chat, so
 * this picks the ones of the conversation's loaded messages, and gives the same object while neither
 * the receipts nor the chat's messages changed.
 */
export function createReceiptMarksSelector(conversationId: number): (state: EngineState) => ReceiptMarksView {
  let lastReceipts: unknown;
  let lastMessages: unknown;
  let last: ReceiptMarksView = NONE;
  return (state) => {
    const messages = state.messages[conversationId];
    if (state.receipts === lastReceipts && messages === lastMessages) return last;
    lastReceipts = state.receipts;
    lastMessages = messages;
    const view: Record<number, ReceiptMarks> = {};
    let changed = false;
    for (const id of Object.keys(messages ?? {})) {
      const marks = state.receipts[Number(id)];
      if (!marks) continue;
      view[Number(id)] = marks;
      if (last[Number(id)] !== marks) changed = true;
    }
    if (changed || Object.keys(view).length !== Object.keys(last).length) last = Object.keys(view).length ? view : NONE;
    return last;
  };
}
