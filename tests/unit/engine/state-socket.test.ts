import { describe, expect, it } from 'vitest';
import { receiptSent } from '../../../src/engine/state/receipts';
import { reduce } from '../../../src/engine/state/reduce';
import { selectMessageWindow } from '../../../src/engine/state/messageWindow';
import { READ_RECEIPT_DELAY_MS } from '../../../src/engine/state/types';
import { ALICE, BOB, SELF, conversation, ctx, frame, listed, loadedState, loadedMessage, message, run } from './state.fixtures';

const ids = (state: ReturnType<typeof loadedState>, conversationId = 10) =>
  selectMessageWindow(state, conversationId).messages.map((m) => m.id);

describe('socket: conversation_message', () => {
  it('stores another user’s message, appends it, moves the list preview and counts it unread', () => {
    const state = loadedState();
    const incoming = message(4, { user_id: BOB });
    const { state: next, effects } = reduce(state, frame('conversation_message', { conversation_id: 10, message: incoming }, 1), ctx());
    expect(loadedMessage(next, 4)).toBe(incoming);
    expect(ids(next)).toEqual([1, 2, 3, 4]);
    expect(next.conversations[10]?.last_message).toBe(incoming);
    expect(next.conversations[10]?.last_message_time).toBe(incoming.created_at);
    expect(next.conversations[10]?.unread_message_count).toBe(1);
    expect(next.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 3, lastReceivedMessageId: 4 });
    expect(effects).toEqual([
      { type: 'sendReceipt', conversationId: 10, messageId: 4, kind: 'delivered', delayMs: 0 },
      { type: 'incomingMessage', conversationId: 10, message: incoming },
    ]);
  });

  it('in an open chat reads it: delivered now, read after the delay, nothing unread', () => {
    const incoming = message(4);
    const { state, effects } = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: incoming }, 1), ctx([10]));
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 4, lastReceivedMessageId: 4 });
    expect(state.conversations[10]?.unread_message_count).toBe(0);
    expect(effects).toEqual([
      { type: 'sendReceipt', conversationId: 10, messageId: 4, kind: 'delivered', delayMs: 0 },
      { type: 'sendReceipt', conversationId: 10, messageId: 4, kind: 'read', delayMs: READ_RECEIPT_DELAY_MS },
      { type: 'incomingMessage', conversationId: 10, message: incoming },
    ]);
    expect(receiptSent(state, 10, 4, 'delivered') && receiptSent(state, 10, 4, 'read')).toBe(true);
    // The read point passed message 4, which records both: no key is kept for them.
    expect(state.sentReceipts).toEqual({});
  });

  it('an own message (the echo of a send) is stored without counting, receipts or notification', () => {
    const own = message(4, { user_id: SELF });
    const { state, effects } = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: own }, 1), ctx());
    expect(ids(state)).toEqual([1, 2, 3, 4]);
    expect(state.conversations[10]?.last_message).toBe(own);
    expect(state.conversations[10]?.unread_message_count).toBe(0);
    expect(state.unread[10]).toEqual({ conversationId: 10, lastReadMessageId: 3, lastReceivedMessageId: 3 });
    expect(effects).toEqual([]);
  });

  it('does not append to a window that is behind the conversation (no hole), but still moves the preview', () => {
    const behind = reduce(loadedState(), { type: 'conversationLoaded', conversation: listed(10, message(7)) }, ctx()).state;
    const { state } = reduce(behind, frame('conversation_message', { conversation_id: 10, message: message(8) }, 1), ctx());
    expect(ids(state)).toEqual([1, 2, 3]);
    expect(loadedMessage(state, 8)).toBeUndefined();
    expect(state.conversations[10]?.last_message?.id).toBe(8);
  });

  it('messages arriving out of order keep the window ascending and the newest as preview', () => {
    const { state, effects } = run(loadedState(), [
      frame('conversation_message', { conversation_id: 10, message: message(5) }, 1),
      frame('conversation_message', { conversation_id: 10, message: message(4) }, 2),
    ]);
    expect(ids(state)).toEqual([1, 2, 3, 4, 5]);
    expect(state.conversations[10]?.last_message?.id).toBe(5);
    // The server sends events in id order, so an id below the received point was already counted (by a
    // snapshot): it is stored and receipted, but neither counted nor announced again.
    expect(state.conversations[10]?.unread_message_count).toBe(1);
    expect(effects.filter((e) => e.type === 'incomingMessage')).toHaveLength(1);
    expect(receiptSent(state, 10, 4, 'delivered')).toBe(true);
  });

  it('a message for an unknown conversation asks for it', () => {
    const { effects } = reduce(loadedState(), frame('conversation_message', { conversation_id: 99, message: message(50, { conversation_id: 99 }) }, 1), ctx());
    expect(effects[0]).toEqual({ type: 'refetchConversation', conversationId: 99 });
    expect(effects).toContainEqual({ type: 'sendReceipt', conversationId: 99, messageId: 50, kind: 'delivered', delayMs: 0 });
  });
});

describe('socket: conversation_edit and conversation_add_user', () => {
  it('conversation_edit refreshes the conversation and keeps its messages out of it', () => {
    const renamed = listed(10, message(3), { name: 'New name', messages: [message(3)] });
    const { state, effects } = reduce(loadedState(), frame('conversation_edit', { conversation_id: 10, conversation: renamed }, 1), ctx());
    expect(state.conversations[10]?.name).toBe('New name');
    expect(state.conversations[10]?.messages).toEqual([]);
    expect(ids(state)).toEqual([1, 2, 3]);
    expect(effects).toEqual([]);
  });

  it('an identical conversation_edit keeps the same objects', () => {
    const state = loadedState();
    const same = listed(10, message(3));
    const next = reduce(state, frame('conversation_edit', { conversation_id: 10, conversation: same }, 1), ctx()).state;
    expect(next.conversations).toBe(state.conversations);
    expect(next.messages).toBe(state.messages);
    expect(next.windows).toBe(state.windows);
  });

  it('conversation_add_user adds a conversation we were added to', () => {
    const added = listed(20, message(30, { conversation_id: 20 }), { unread_message_count: 1, is_unread: true });
    const { state } = reduce(loadedState(), frame('conversation_add_user', { conversation_id: 20, user_ids: [SELF], conversation: added }, 1), ctx());
    expect(state.conversations[20]?.name).toBe('chat 20');
    expect(state.conversations[20]?.unread_message_count).toBe(1);
  });

  it('conversation_add_user refreshes the member list of a known conversation', () => {
    const bigger = listed(10, message(3), { member_count: 4 });
    const { state } = reduce(loadedState(), frame('conversation_add_user', { conversation_id: 10, user_ids: [7], conversation: bigger }, 1), ctx());
    expect(state.conversations[10]?.member_count).toBe(4);
  });
});

describe('socket: deleted_conversation and conversation_removed_user', () => {
  it('deleted_conversation removes it and its messages and refetches the list', () => {
    const before = loadedState([listed(20, null)]);
    const { state, effects } = reduce(before, frame('deleted_conversation', { conversation_id: 10 }, 1), ctx());
    expect(state.conversations[10]).toBeUndefined();
    expect(state.windows[10]).toBeUndefined();
    // The unread record stays: its read point keeps the receipts sent in it sent, once, ever.
    expect(state.unread[10]).toBe(before.unread[10]);
    expect(Object.keys(state.messages)).toEqual([]);
    expect(state.conversations[20]).toBeDefined();
    expect(effects).toEqual([{ type: 'conversationGone', conversationId: 10 }, { type: 'refetchConversations' }]);
  });

  it('removing self: the conversation goes, its tabs go back to the list, the list is refetched', () => {
    const { state, effects } = reduce(loadedState(), frame('conversation_removed_user', { conversation_id: 10, user_id: SELF }, 1), ctx());
    expect(state.conversations[10]).toBeUndefined();
    expect(loadedMessage(state, 1)).toBeUndefined();
    expect(effects).toEqual([{ type: 'conversationGone', conversationId: 10 }, { type: 'refetchConversations' }]);
  });

  it('removing someone else updates the member list locally', () => {
    const { state, effects } = reduce(loadedState(), frame('conversation_removed_user', { conversation_id: 10, user_id: BOB }, 1), ctx());
    expect(state.conversations[10]?.users.map((u) => u.user.user_id)).toEqual([SELF, ALICE]);
    expect(state.conversations[10]?.member_count).toBe(2);
    expect(effects).toEqual([]);
  });

  it('removing someone from an unknown conversation refetches it', () => {
    const { effects } = reduce(loadedState(), frame('conversation_removed_user', { conversation_id: 77, user_id: BOB }, 1), ctx());
    expect(effects).toEqual([{ type: 'refetchConversation', conversationId: 77 }]);
  });
});

describe('socket: reactions_changed', () => {
  const reactions = [{ reaction: '👍', users: [{ user_id: BOB, set_at: '1' }] }];

  it('replaces a message’s reactions, found by id', () => {
    const state = loadedState();
    const next = reduce(state, frame('reactions_changed', { conversation_id: 10, message_id: 2, message_stid: 's2', reactions }, 1), ctx()).state;
    expect(loadedMessage(next, 2)?.reactions).toEqual(reactions);
    expect(loadedMessage(next, 1)).toBe(loadedMessage(state, 1));
  });

  it('also reaches the conversation’s last message', () => {
    const next = reduce(loadedState(), frame('reactions_changed', { conversation_id: 10, message_id: 3, message_stid: 's3', reactions }, 1), ctx()).state;
    expect(next.conversations[10]?.last_message?.reactions).toEqual(reactions);
  });

  it('ignores a comment’s reactions safely', () => {
    const state = loadedState();
    const { state: next, effects } = reduce(
      state,
      frame('reactions_changed', { conversation_id: 10, post_id: 2, comment_id: 5, reactions }, 1),
      ctx(),
    );
    expect(next.messages).toBe(state.messages);
    expect(next.conversations).toBe(state.conversations);
    expect(next.lastEventId).toBe(1);
    expect(effects).toEqual([]);
  });
});

describe('socket: conversation_message_delete', () => {
  it('deleted for everybody: each message becomes its tombstone in its place, by id or stid', () => {
    const before = run(loadedState(), [
      { type: 'messageStored', message: message(2, { message: 'secret', quoted: 1, reactions: [{ reaction: '👍', users: [] }] }) },
    ]).state;
    const { state, effects } = reduce(
      before,
      frame('conversation_message_delete', { conversation_id: 10, message_ids: [2], message_stids: ['s3'], hidden: false }, 1),
      ctx(),
    );
    expect(ids(state)).toEqual([1, 2, 3]);
    const original = loadedMessage(before, 2)!;
    expect(loadedMessage(state, 2)).toEqual({
      ...original,
      message: '',
      rich_message: null,
      edited_at: 0,
      attachment: null,
      reactions: [],
      quoted: null,
      pinned: false,
      deleted: true,
    });
    expect(loadedMessage(state, 3)).toMatchObject({ id: 3, message: '', deleted: true });
    // The last message stays, as its tombstone (the list's preview says it was deleted).
    expect(state.conversations[10]?.last_message).toMatchObject({ id: 3, deleted: true });
    expect(effects).toEqual([]);
    // Told again (a replay): nothing changes.
    const again = reduce(state, frame('conversation_message_delete', { conversation_id: 10, message_ids: [2], message_stids: [], hidden: false }, 2), ctx());
    expect(again.state.messages).toBe(state.messages);
  });

  it('deleted for everybody: a page asked for before the delete does not bring the text back', () => {
    const deleted = reduce(
      loadedState(),
      frame('conversation_message_delete', { conversation_id: 10, message_ids: [2, 3], message_stids: [], hidden: false }, 1),
      ctx(),
    ).state;
    const { state } = run(deleted, [
      { type: 'messagesLoaded', conversationId: 10, messages: [message(1), message(2), message(3)], older: false, pageSize: 50 },
    ]);
    expect([1, 2, 3].map((id) => loadedMessage(state, id)?.message)).toEqual(['text 1', '', '']);
    expect(state.conversations[10]?.last_message).toMatchObject({ id: 3, deleted: true });    // Nor does a conversation answered from before it.
    const listedAgain = run(state, [{ type: 'conversationLoaded', conversation: listed(10, message(3)) }]).state;
    expect(listedAgain.conversations[10]?.last_message).toMatchObject({ id: 3, deleted: true });
  });

  it('deleted for everybody: the last message, not loaded, becomes its tombstone without a refetch', () => {
    const state = run(loadedState(), [{ type: 'conversationLoaded', conversation: listed(20, message(40, { conversation_id: 20 })) }]).state;
    const { state: next, effects } = reduce(
      state,
      frame('conversation_message_delete', { conversation_id: 20, message_ids: [40], message_stids: ['s40'], hidden: false }, 1),
      ctx(),
    );
    expect(next.conversations[20]?.last_message).toMatchObject({ id: 40, message: '', deleted: true });
    expect(effects).toEqual([]);
  });

  it('hidden (delete for me): removes messages by id or by stid', () => {
    const byId = reduce(
      loadedState(),
      frame('conversation_message_delete', { conversation_id: 10, message_ids: [2], message_stids: [], hidden: true }, 1),
      ctx(),
    );
    expect(ids(byId.state)).toEqual([1, 3]);
    expect(loadedMessage(byId.state, 2)).toBeUndefined();
    expect(byId.effects).toEqual([]);
    const { state } = reduce(
      loadedState(),
      frame('conversation_message_delete', { conversation_id: 10, message_ids: [], message_stids: ['s1'], hidden: true }, 1),
      ctx(),
    );
    expect(ids(state)).toEqual([2, 3]);
  });

  it('hidden: when the last message goes, the newest remaining one becomes the preview', () => {
    const { state } = reduce(
      loadedState(),
      frame('conversation_message_delete', { conversation_id: 10, message_ids: [3], message_stids: ['s3'], hidden: true }, 1),
      ctx(),
    );
    expect(state.conversations[10]?.last_message?.id).toBe(2);
    expect(state.conversations[10]?.last_message_time).toBe(loadedMessage(state, 2)?.created_at);
  });

  it('hidden: when the last message goes and the rest is not loaded, the conversation is refetched', () => {
    const state = run(loadedState(), [{ type: 'conversationLoaded', conversation: listed(20, message(40, { conversation_id: 20 })) }]).state;
    const { effects } = reduce(
      state,
      frame('conversation_message_delete', { conversation_id: 20, message_ids: [40], message_stids: ['s40'], hidden: true }, 1),
      ctx(),
    );
    expect(effects).toEqual([{ type: 'refetchConversation', conversationId: 20 }]);
  });

  it('an unread message that is deleted stops counting, for everybody or for me', () => {
    for (const hidden of [false, true]) {
      const withUnread = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx()).state;
      expect(withUnread.conversations[10]?.unread_message_count).toBe(1);
      const { state } = reduce(
        withUnread,
        frame('conversation_message_delete', { conversation_id: 10, message_ids: [4], message_stids: [], hidden }, 2),
        ctx(),
      );
      expect(state.conversations[10]?.unread_message_count, String(hidden)).toBe(0);
      expect(state.unread[10]?.lastReadMessageId).toBeGreaterThanOrEqual(state.unread[10]?.lastReceivedMessageId ?? 0);
    }
  });
});

describe('socket: conversation_message_edited and conversation_message_update', () => {
  it('an edit replaces the loaded message and the preview', () => {
    const edited = message(3, { message: 'fixed', edited_at: 1_700_000_500 });
    const { state } = reduce(loadedState(), frame('conversation_message_edited', { conversation_id: 10, message: edited }, 1), ctx());
    expect(loadedMessage(state, 3)).toBe(edited);
    expect(state.conversations[10]?.last_message).toBe(edited);
  });

  it('an edit of a message that is not loaded (or hidden here) does not bring it back', () => {
    const state = loadedState();
    const next = reduce(state, frame('conversation_message_edited', { conversation_id: 10, message: message(0) }, 1), ctx()).state;
    expect(next.messages).toBe(state.messages);
    expect(next.windows).toBe(state.windows);
  });

  it('an update replaces the loaded message', () => {
    const updated = message(2, { discussion: { comments_count: 4 } });
    const { state } = reduce(loadedState(), frame('conversation_message_update', { conversation_id: 10, message: updated }, 1), ctx());
    expect(loadedMessage(state, 2)?.discussion).toEqual({ comments_count: 4 });
  });
});

describe('socket: channel_post_comment_added', () => {
  const comment = {
    comment_id: 5,
    post_id: 2,
    parent_comment_id: null,
    channel_id: 10,
    user_id: BOB,
    message: 'nice',
    created_at: '1',
    reactions: [],
    replies_count: 0,
    client_id: null,
  };

  it('raises the loaded post’s comment count', () => {
    const state = run(loadedState(), [frame('conversation_message_update', { conversation_id: 10, message: message(2, { discussion: { comments_count: 2 } }) }, 1)]).state;
    const { state: next } = reduce(state, frame('channel_post_comment_added', { channel_id: 10, post_id: 2, comment, participants: [] }, 2), ctx());
    expect(loadedMessage(next, 2)?.discussion).toEqual({ comments_count: 3 });
  });

  it('starts the count on a post without discussion, and ignores a post that is not loaded', () => {
    const state = loadedState();
    const counted = reduce(state, frame('channel_post_comment_added', { channel_id: 10, post_id: 2, comment, participants: [] }, 1), ctx()).state;
    expect(loadedMessage(counted, 2)?.discussion).toEqual({ comments_count: 1 });
    const other = reduce(state, frame('channel_post_comment_added', { channel_id: 10, post_id: 99, comment, participants: [] }, 1), ctx()).state;
    expect(other.messages).toBe(state.messages);
  });
});

describe('socket: inbox_channel_added', () => {
  it('refetches the list', () => {
    const state = loadedState();
    const { state: next, effects } = reduce(state, frame('inbox_channel_added', { conversation_id: 30, community_id: 4 }, 1), ctx());
    expect(effects).toEqual([{ type: 'refetchConversations' }]);
    expect(next.conversations).toBe(state.conversations);
  });
});

describe('socket: message_dlr2', () => {
  it('marks receipts on own messages, read counting as delivered, each reader once', () => {
    const state = run(loadedState(), [
      frame('message_dlr2', { conversation_id: 10, message_id: 3, user_id: ALICE, type: 'delivered' }, 1),
      frame('message_dlr2', { conversation_id: 10, message_id: 3, user_id: BOB, type: 'read' }, 2),
      frame('message_dlr2', { conversation_id: 10, message_id: 3, user_id: ALICE, type: 'read' }, 3),
    ]).state;
    expect(state.receipts[3]).toEqual({ delivered: [ALICE, BOB], read: [BOB, ALICE] });
  });
});

describe('socket: user_presence', () => {
  it('keeps a presence map and leaves the event id alone (presence has none)', () => {
    const state = { ...loadedState(), lastEventId: 5 };
    const online = reduce(state, frame('user_presence', { user_id: ALICE, online: true, last_seen: '1700000000' }), ctx());
    expect(online.state.presence[ALICE]).toEqual({ online: true, lastSeen: '1700000000' });
    expect(online.state.lastEventId).toBe(5);
    expect(online.effects).toEqual([]);
    const offline = reduce(online.state, frame('user_presence', { user_id: ALICE, online: false, last_seen: '1700000100' }), ctx());
    expect(offline.state.presence[ALICE]).toEqual({ online: false, lastSeen: '1700000100' });
  });

  it('forgets what it knew when a socket (re)connects: presence is not replayed, so it may be stale', () => {
    const state = { ...loadedState(), lastEventId: 5, epoch: 'e1' };
    const online = reduce(state, frame('user_presence', { user_id: ALICE, online: true, last_seen: '1700000000' }), ctx()).state;
    const back = reduce(online, { type: 'socketLoaded', needSync: false, lastEventId: 5, epoch: 'e1' }, ctx());
    expect(back.state.presence).toEqual({});
    expect(back.effects).toEqual([]);
    // An answer to a question asked before the reconnect may be what changed meanwhile: dropped.
    const late = reduce(back.state, { type: 'presenceLoaded', userId: ALICE, online: true, lastSeen: null, round: online.presenceRound }, ctx());
    expect(late.state.presence[ALICE]).toBeUndefined();
    const fresh = reduce(back.state, { type: 'presenceLoaded', userId: ALICE, online: false, lastSeen: '1700000200', round: back.state.presenceRound }, ctx());
    expect(fresh.state.presence[ALICE]).toEqual({ online: false, lastSeen: '1700000200' });
  });
});

describe('socket: self_dlr_sync', () => {
  it('a read on another device reads here and is never sent again', () => {
    const unread = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx()).state;
    const { state, effects } = reduce(unread, frame('self_dlr_sync', { conversation_id: 10, message_id: 4, type: 'read' }, 2), ctx());
    expect(effects).toEqual([]);
    expect(state.unread[10]?.lastReadMessageId).toBe(4);
    expect(state.conversations[10]?.unread_message_count).toBe(0);
    expect(receiptSent(state, 10, 4, 'read')).toBe(true);
    const opened = reduce(state, { type: 'conversationOpened', conversationId: 10 }, ctx([10]));
    expect(opened.effects).toEqual([]);
    const seen = reduce(state, { type: 'messageVisible', conversationId: 10, messageId: 4 }, ctx([10]));
    expect(seen.effects).toEqual([]);
  });

  it('a delivered on another device is recorded without reading', () => {
    const unread = reduce(loadedState(), frame('conversation_message', { conversation_id: 10, message: message(4) }, 1), ctx()).state;
    const { state } = reduce(unread, frame('self_dlr_sync', { conversation_id: 10, message_id: 5, type: 'delivered' }, 2), ctx());
    expect(state.sentReceipts['10:5:delivered']).toBe(true);
    expect(state.sentReceipts['10:5:read']).toBeUndefined();
    expect(state.conversations[10]?.unread_message_count).toBe(1);
  });
});

describe('socket: untouched slices', () => {
  it('a message in one conversation leaves the other slices and conversations as they were', () => {
    const state = loadedState([conversation(20)]);
    const next = reduce(state, frame('conversation_message', { conversation_id: 10, message: message(4, { user_id: SELF }) }, 1), ctx()).state;
    expect(next.conversations[20]).toBe(state.conversations[20]);
    expect(next.unread).toBe(state.unread);
    expect(next.receipts).toBe(state.receipts);
    expect(next.sentReceipts).toBe(state.sentReceipts);
    expect(next.presence).toBe(state.presence);
    expect(loadedMessage(next, 1)).toBe(loadedMessage(state, 1));
  });
});
