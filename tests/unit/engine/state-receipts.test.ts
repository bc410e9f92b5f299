import { describe, expect, it } from 'vitest';
import { reduce } from '../../../src/engine/state/reduce';
import { READ_RECEIPT_DELAY_MS } from '../../../src/engine/state/types';
import type { EngineEffect } from '../../../src/engine/state/types';
import { BOB, SELF, ctx, frame, listed, loadedState, message, run } from './state.fixtures';

const receipts = (effects: EngineEffect[]) =>
  effects.filter((e) => e.type === 'sendReceipt').map((e) => e.type === 'sendReceipt' && `${e.messageId}:${e.kind}:${e.delayMs}`);

describe('receipts this user sends (spec §4)', () => {
  it('another user’s message in an open chat: delivered at once, then read after 500 ms', () => {
    const { effects } = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx([10]));
    expect(READ_RECEIPT_DELAY_MS).toBe(500);
    expect(receipts(effects)).toEqual(['4:delivered:0', '4:read:500']);
  });

  it('in a chat that is not open: delivered only; opening it later sends read for the last message', () => {
    const first = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx());
    expect(receipts(first.effects)).toEqual(['4:delivered:0']);
    const opened = reduce(first.state, { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    expect(receipts(opened.effects)).toEqual(['4:read:0']);
  });

  it('each (conversation, message, kind) is planned once, ever', () => {
    const result = run(
      loadedState(),
      [
        frame('conversation_message', { conversation_id: 10, message: message(4) }, 1),
        { type: 'conversationOpened', conversationId: 10 },
        { type: 'messageVisible', conversationId: 10, messageId: 4 },
        { type: 'messageVisible', conversationId: 10, messageId: 4 },
        { type: 'conversationOpened', conversationId: 10 },
      ],
      ctx([10]),
    );
    expect(receipts(result.effects)).toEqual(['4:delivered:0', '4:read:500']);
  });

  it('the record of sent receipts survives the conversation being reloaded or removed', () => {
    const read = run(loadedState(), [{ type: 'messageVisible', conversationId: 10, messageId: 2 }], ctx([10])).state;
    expect(read.sentReceipts['10:2:read']).toBe(true);
    const reloaded = run(read, [
      { type: 'conversationRemoved', conversationId: 10 },
      { type: 'conversationsLoaded', conversations: [listed(10, message(3))] },
      { type: 'messagesLoaded', conversationId: 10, messages: [message(1), message(2), message(3)], older: false, pageSize: 20 },
      { type: 'messageVisible', conversationId: 10, messageId: 2 },
    ]);
    expect(receipts(reloaded.effects)).toEqual([]);
  });

  it('a message seen half in view sends read once; a read also counts as delivered', () => {
    const { state, effects } = reduce(loadedState(), { type: 'messageVisible', conversationId: 10, messageId: 1 }, ctx([10]));
    expect(receipts(effects)).toEqual(['1:read:0']);
    expect(state.sentReceipts).toMatchObject({ '10:1:read': true, '10:1:delivered': true });
  });

  it('own messages never get receipts, on arrival, on open or in view', () => {
    const own = message(4, { user_id: SELF });
    const result = run(
      loadedState(),
      [
        frame('conversation_message', { conversation_id: 10, message: own }, 1),
        { type: 'messageVisible', conversationId: 10, messageId: 4 },
      ],
      ctx([10]),
    );
    expect(receipts(result.effects)).toEqual([]);
    const opened = reduce(result.state, { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    // On open the read names the newest message from someone else (3), not our own 4.
    expect(receipts(opened.effects)).toEqual(['3:read:0']);
  });

  it('system messages from others are receipted like any other', () => {
    const system = message(4, { type: 'system', user_id: BOB });
    const { effects } = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: system }, 1), ctx());
    expect(receipts(effects)).toEqual(['4:delivered:0']);
  });

  it('the same message delivered twice by the server (two event ids) is still receipted once', () => {
    const result = run(loadedState(), [
      frame('conversation_message', { conversation_id: 10, message: message(4) }, 1),
      frame('conversation_message', { conversation_id: 10, message: message(4) }, 2),
    ]);
    expect(receipts(result.effects)).toEqual(['4:delivered:0']);
    expect(result.effects.filter((e) => e.type === 'incomingMessage')).toHaveLength(1);
    expect(result.state.conversations[10]?.unread_message_count).toBe(1);
  });
});
