import { describe, expect, it } from 'vitest';
import { selectConversation } from '../../../src/engine/state/conversationList';
import type { EngineEffect, ReduceContext } from '../../../src/engine/state/types';
import { BOB, ctx, frame, loadedState, message, run } from './state.fixtures';

/**
 * docs/ui.md, "Opening at the first unread message": a chat shown by a tab that reads as seen (the app's) is
 * read by what its reader sees while it has unread messages, not by opening, showing or a new message in it.
 */
const receipts = (effects: EngineEffect[]) =>
  effects.filter((e) => e.type === 'sendReceipt').map((e) => e.type === 'sendReceipt' && `${e.messageId}:${e.kind}:${e.delayMs}`);

/** Chat 10 open in a visible tab that reads it as its reader sees it. */
const asSeen = (): ReduceContext => ({ ...ctx([10]), readAsSeen: new Set([10]) });

const incoming = (id: number, eventId: number) =>
  frame('conversation_message', { conversation_id: 10, message: message(id, { user_id: BOB }) }, eventId);

/** Chat 10 with messages 4, 5 and 6 unread (they came while it was not open). */
const threeUnread = () => run(loadedState(), [incoming(4, 1), incoming(5, 2), incoming(6, 3)]).state;

describe('a chat read as its reader sees it', () => {
  it('is not read by opening or by its latest page while it has unread messages', () => {
    const { state, effects } = run(
      threeUnread(),
      [
        { type: 'conversationOpened', conversationId: 10 },
        { type: 'messagesLoaded', conversationId: 10, messages: [4, 5, 6].map((id) => message(id, { user_id: BOB })), older: false, pageSize: 20 },
      ],
      asSeen(),
    );
    expect(receipts(effects)).toEqual([]);
    expect(selectConversation(state, 10)?.unreadCount).toBe(3);
    expect(state.unread[10]?.lastReadMessageId).toBe(3);
    // The same chat in a tab that does not read as seen (a console, an older build) is read at once, as spec §4 says.
    const opened = run(threeUnread(), [{ type: 'conversationOpened', conversationId: 10 }], ctx([10]));
    expect(receipts(opened.effects)).toEqual(['6:read:0']);
    expect(selectConversation(opened.state, 10)?.unreadCount).toBe(0);
  });

  it('counts down as the reader sees its messages, and the last one seen reads it', () => {
    const opened = run(threeUnread(), [{ type: 'conversationOpened', conversationId: 10 }], asSeen()).state;
    const seen = run(opened, [{ type: 'messageVisible', conversationId: 10, messageId: 4 }], asSeen());
    expect(receipts(seen.effects)).toEqual(['4:read:0']);
    expect(selectConversation(seen.state, 10)?.unreadCount).toBe(2);
    const bottom = run(seen.state, [{ type: 'messageVisible', conversationId: 10, messageId: 6 }], asSeen());
    expect(receipts(bottom.effects)).toEqual(['6:read:0']);
    expect(selectConversation(bottom.state, 10)?.unreadCount).toBe(0);
  });

  it('a new message while earlier ones are unread is unread too; once all are read, new ones are read as they come', () => {
    const opened = run(threeUnread(), [{ type: 'conversationOpened', conversationId: 10 }], asSeen()).state;
    const more = run(opened, [incoming(7, 4)], asSeen());
    expect(receipts(more.effects)).toEqual(['7:delivered:0']);
    expect(selectConversation(more.state, 10)?.unreadCount).toBe(4);
    const caughtUp = run(more.state, [{ type: 'messageVisible', conversationId: 10, messageId: 7 }], asSeen()).state;
    expect(selectConversation(caughtUp, 10)?.unreadCount).toBe(0);
    const next = run(caughtUp, [incoming(8, 5)], asSeen());
    expect(receipts(next.effects)).toEqual(['8:delivered:0', '8:read:500']);
    expect(selectConversation(next.state, 10)?.unreadCount).toBe(0);
  });
});
