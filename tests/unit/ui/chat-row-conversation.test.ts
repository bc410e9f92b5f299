import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../src/protocol/entities';
import { sameData, sameForRows } from '../../../src/ui/chat/rowConversation';
import { conversation, message, OTHER } from '../../browser/support/entities';

describe("the chat the message rows see (issue 11)", () => {
  it('compares data, not objects: a structured clone of a chat is the same chat', () => {
    const chat = conversation({ is_group: true });
    expect(sameData(chat, structuredClone(chat))).toBe(true);
    expect(sameForRows(chat, structuredClone(chat))).toBe(true);
    expect(sameData([1, { a: [2] }], [1, { a: [3] }])).toBe(false);
    expect(sameData({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameData([1], { 0: 1 })).toBe(false);
    expect(sameData(null, {})).toBe(false);
    expect(sameData(Number.NaN, Number.NaN)).toBe(true);
  });

  it('ignores what changes with every message and read, and sees everything else a row may show', () => {
    const chat = conversation({ is_group: true });
    const next: Conversation = {
      ...structuredClone(chat),
      last_message: message({ id: 500 }),
      last_message_time: '500',
      unread_message_count: 4,
      is_unread: true,
    };
    expect(sameForRows(chat, next)).toBe(true);
    const renamed = structuredClone(chat);
    const erik = renamed.users.find((u) => u.user.id === OTHER);
    if (erik) erik.user.nickname = 'Erik the Red';
    expect(sameForRows(chat, renamed)).toBe(false);
    expect(sameForRows(chat, { ...chat, disable_comments: true })).toBe(false);
  });
});
