import { describe, expect, it } from 'vitest';
import { createReceiptMarksSelector } from '../../../src/engine/state';
import { ALICE, BOB, frame, loadedState, message, run, SELF } from './state.fixtures';

/** Receipts on own messages (spec §4 message_dlr2, §7 GET …/dlrs) as the UI's `receipts(conversationId)` reads them. */

function withOwnMessages() {
  const own = [message(4, { user_id: SELF }), message(5, { user_id: SELF })];
  return run(loadedState(), own.map((m) => frame('conversation_message', { conversation_id: 10, message: m }))).state;
}

const at = '1700000000';

describe('receipt marks', () => {
  it('adds the dlrs answer; a read counts as delivered; a known receipt changes nothing', () => {
    const state = withOwnMessages();
    const { state: next } = run(state, [
      {
        type: 'receiptsLoaded',
        receipts: [
          { message_id: 4, user_id: ALICE, type: 'delivered', at },
          { message_id: 5, user_id: ALICE, type: 'read', at },
        ],
      },
    ]);
    expect(next.receipts[4]).toEqual({ delivered: [ALICE], read: [] });
    expect(next.receipts[5]).toEqual({ delivered: [ALICE], read: [ALICE] });
    const again = run(next, [{ type: 'receiptsLoaded', receipts: [{ message_id: 5, user_id: ALICE, type: 'read', at }] }]);
    expect(again.state).toBe(next);
  });

  it('selects one conversation’s marks, and the same object while nothing it reads changed', () => {
    const select = createReceiptMarksSelector(10);
    let state = withOwnMessages();
    expect(select(state)).toEqual({});
    state = run(state, [frame('message_dlr2', { conversation_id: 10, message_id: 4, user_id: BOB, type: 'delivered' })]).state;
    const first = select(state);
    expect(first).toEqual({ 4: { delivered: [BOB], read: [] } });
    // A receipt for a message of another chat leaves this chat's view as it was.
    state = run(state, [{ type: 'receiptsLoaded', receipts: [{ message_id: 999, user_id: BOB, type: 'read', at }] }]).state;
    expect(select(state)).toBe(first);
    expect(createReceiptMarksSelector(11)(state)).toEqual({});
  });
});
