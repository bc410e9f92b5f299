import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationUser } from '../../../src/protocol/entities';
import { reactionUserNames } from '../../../src/ui/chat/actions/actionRules';
import { authorName } from '../../../src/ui/chat/composer/ComposerPreview';
import { findMember, memberUserId } from '../../../src/ui/chat/message/members';

/** A member as the API may send it: with `id`, with `user_id`, or with both. */
const member = (ids: { id?: number; user_id?: number }, nickname: string): ConversationUser =>
  ({ user: { ...ids, stid: '', nickname, phone_nr: '+4670000000', image: { meta: {} } }, is_admin: false }) as ConversationUser;

const chat = (users: ConversationUser[]) => ({ users }) as Conversation;

describe("a member's user id", () => {
  it('is user_id when sent, else id', () => {
    expect(memberUserId({ id: 7, user_id: 7 })).toBe(7);
    expect(memberUserId({ user_id: 8 } as never)).toBe(8);
    expect(memberUserId({ id: 9 } as never)).toBe(9);
  });

  it('finds members named either way, in every place that looks one up', () => {
    const c = chat([member({ id: 2 }, 'Erik'), member({ user_id: 3 }, 'Sara')]);
    expect(findMember(c, 2)?.nickname).toBe('Erik');
    expect(findMember(c, 3)?.nickname).toBe('Sara');
    expect(findMember(c, 4)).toBeUndefined();
    expect(reactionUserNames([3, 2, 1, 5], c, 1, { self: 'You', unknown: 'Someone' })).toEqual([
      'Sara',
      'Erik',
      'You',
      'Someone',
    ]);
    const from = (user_id: number) => ({ user_id }) as Parameters<typeof authorName>[0];
    expect(authorName(from(3), c, 1, 'You')).toBe('Sara');
    expect(authorName(from(2), c, 1, 'You')).toBe('Erik');
  });
});
