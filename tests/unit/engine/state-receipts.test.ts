import { describe, expect, it } from 'vitest';
import { receiptSent } from '../../../src/engine/state/receipts';
import { reduce } from '../../../src/engine/state/reduce';
import { READ_RECEIPT_DELAY_MS } from '../../../src/engine/state/types';
import type { EngineEffect } from '../../../src/engine/state/types';
import { BOB, SELF, ctx, frame, listed, loadedState, message, run, unreadState } from './state.fixtures';

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

  it('the record of sent receipts survives the conversation being removed and listed again', () => {
    const read = run(unreadState(), [{ type: 'messageVisible', conversationId: 10, messageId: 2 }], ctx([10]));
    expect(receipts(read.effects)).toEqual(['2:read:0']);
    const again = run(read.state, [
      frame('deleted_conversation', { conversation_id: 10 }, 1),
      { type: 'conversationsLoaded', conversations: [listed(10, message(3), { unread_message_count: 1, is_unread: true })] },
      { type: 'messagesLoaded', conversationId: 10, messages: [message(1), message(2), message(3)], older: false, pageSize: 20 },
      { type: 'messageVisible', conversationId: 10, messageId: 1 },
      { type: 'messageVisible', conversationId: 10, messageId: 2 },
    ]);
    expect(receipts(again.effects)).toEqual([]);
  });

  it('a message seen half in view sends read once; a read also counts as delivered', () => {
    const { state, effects } = reduce(unreadState(), { type: 'messageVisible', conversationId: 10, messageId: 1 }, ctx([10]));
    expect(receipts(effects)).toEqual(['1:read:0']);
    expect(receiptSent(state, 10, 1, 'read') && receiptSent(state, 10, 1, 'delivered')).toBe(true);
    expect(receipts(reduce(state, { type: 'messageVisible', conversationId: 10, messageId: 1 }, ctx([10])).effects)).toEqual([]);
  });

  it('own messages never get receipts, on arrival, on open or in view', () => {
    const own = message(5, { user_id: SELF });
    const unread = run(loadedState(), [frame('conversation_message', { conversation_id: 10, message: message(4) }, 1)]).state;
    const result = run(
      unread,
      [
        frame('conversation_message', { conversation_id: 10, message: own }, 2),
        { type: 'messageVisible', conversationId: 10, messageId: 5 },
      ],
      ctx([10]),
    );
    expect(receipts(result.effects)).toEqual([]);
    const opened = reduce(unread, { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    // On open the read names the newest message from someone else (4), not our own 5... once the own
    // message is stored.
    const withOwn = run(unread, [frame('conversation_message', { conversation_id: 10, message: own }, 2)]).state;
    expect(receipts(reduce(withOwn, { type: 'conversationOpened', conversationId: 10 }, ctx([10])).effects)).toEqual(['4:read:0']);
    expect(receipts(opened.effects)).toEqual(['4:read:0']);
  });

  it('nothing at or below the read point is receipted: the server already counts it read', () => {
    // loadedState: the server said nothing is unread up to message 3.
    const opened = reduce(loadedState(), { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    expect(receipts(opened.effects)).toEqual([]);
    const seen = reduce(loadedState(), { type: 'messageVisible', conversationId: 10, messageId: 2 }, ctx([10]));
    expect(receipts(seen.effects)).toEqual([]);
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

describe('the record of sent receipts stays small (spec §4: once, ever)', () => {
  const incoming = (id: number, eventId: number) =>
    frame('conversation_message', { conversation_id: 10, message: message(id, { user_id: BOB }) }, eventId);
  const burst = (from: number, count: number) => Array.from({ length: count }, (_, i) => incoming(from + i, from + i));

  it('keeps no keys for messages read in an open chat', () => {
    const { state, effects } = run(loadedState(), burst(4, 50), ctx([10]));
    expect(receipts(effects)).toHaveLength(100);
    expect(state.sentReceipts).toEqual({});
    expect(receiptSent(state, 10, 4, 'delivered') && receiptSent(state, 10, 53, 'read')).toBe(true);
  });

  it('keeps delivered keys only until the chat is read, then forgets them', () => {
    const unread = run(loadedState(), burst(4, 30)).state;
    expect(Object.keys(unread.sentReceipts)).toHaveLength(30);
    const opened = reduce(unread, { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    expect(receipts(opened.effects)).toEqual(['33:read:0']);
    expect(opened.state.sentReceipts).toEqual({});
    expect(receiptSent(opened.state, 10, 4, 'delivered') && receiptSent(opened.state, 10, 33, 'read')).toBe(true);
  });

  it('a read on another device (self_dlr_sync) forgets the keys it covers', () => {
    const unread = run(loadedState(), burst(4, 3)).state;
    const { state } = reduce(unread, frame('self_dlr_sync', { conversation_id: 10, message_id: 5, type: 'read' }, 10), ctx());
    expect(Object.keys(state.sentReceipts)).toEqual(['10:6:delivered']);
  });

  it('still sends nothing twice after pruning: replayed events, a reload, the chat seen again', () => {
    const read = run(loadedState(), [...burst(4, 5), { type: 'conversationOpened', conversationId: 10 }], ctx([10])).state;
    // A reload restores the persisted state: plain JSON.
    const reloaded = JSON.parse(JSON.stringify(read)) as typeof read;
    const replay = run(
      { ...reloaded, lastEventId: 0 },
      [...burst(4, 5), { type: 'conversationOpened', conversationId: 10 }, { type: 'messageVisible', conversationId: 10, messageId: 6 }],
      ctx([10]),
    );
    expect(receipts(replay.effects)).toEqual([]);
    expect(replay.state.sentReceipts).toEqual({});
  });
});
