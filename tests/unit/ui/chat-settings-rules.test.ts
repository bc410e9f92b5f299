import { describe, expect, it } from 'vitest';
import type { Conversation, ConversationUser } from '../../../src/protocol/entities';
import {
  checkRename,
  displayName,
  hasSettings,
  isAdminMember,
  isBroadcast,
  otherMember,
  selfIsAdmin,
  sortedMembers,
} from '../../../src/ui/chatSettings/rules';
import { shownPanel } from '../../../src/ui/main/rightPanel';

const image = { meta: { url: '', thumbnail: '', is_default: true } };
const person = (id: number, nickname: string, isAdmin = false, phone = ''): ConversationUser => ({
  user: { id, user_id: id, stid: `u${id}`, nickname, phone_nr: phone, image },
  is_admin: isAdmin,
});

function group(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: 7,
    stid: 'c7',
    name: 'Book club',
    description: '',
    image,
    avatar: image,
    logo: null,
    is_group: true,
    group_type: 'normal',
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    users: [person(1, 'Me', true), person(2, 'Zed'), person(3, 'Anna'), person(4, 'Bert', true)],
    member: { is_owner: true, is_admin: true, permissions: { create_posts: false }, mute: null },
    admins: [1, 4],
    member_count: 4,
    messages: [],
    last_message: null,
    last_message_time: '0',
    created_at: '0',
    unread_message_count: 0,
    is_unread: false,
    owner_stid: 'u1',
    community_id: null,
    community_name: null,
    is_community_announcements: false,
    is_demo: false,
    disable_comments: false,
    read_only: false,
    ...overrides,
  };
}

describe('chat settings rules', () => {
  it('trims a new name, closes on an unchanged one and refuses empty or over 50 characters (spec §5)', () => {
    expect(checkRename('  New name ', 'Old')).toEqual({ kind: 'ok', name: 'New name' });
    expect(checkRename(' Old  ', 'Old')).toEqual({ kind: 'unchanged' });
    expect(checkRename('   ', 'Old')).toEqual({ kind: 'empty' });
    expect(checkRename('x'.repeat(50), 'Old')).toEqual({ kind: 'ok', name: 'x'.repeat(50) });
    expect(checkRename('x'.repeat(51), 'Old')).toEqual({ kind: 'tooLong' });
    expect(checkRename('A', 'Old')).toEqual({ kind: 'ok', name: 'A' });
  });

  it('gives channels and feeds no settings, every other chat settings (spec §2)', () => {
    expect(hasSettings(group())).toBe(true);
    expect(hasSettings(group({ is_group: false }))).toBe(true);
    expect(hasSettings(group({ group_type: 'channel' }))).toBe(false);
    expect(hasSettings(group({ group_type: 'feed' }))).toBe(false);
  });

  it('knows broadcast groups, admins and the other person of a one-to-one chat', () => {
    expect(isBroadcast(group())).toBe(false);
    expect(isBroadcast(group({ settings: { ...group().settings, reply_to: '1' } }))).toBe(true);
    expect(isAdminMember(group(), 4)).toBe(true);
    expect(isAdminMember(group(), 2)).toBe(false);
    expect(selfIsAdmin(group(), 1)).toBe(true);
    expect(selfIsAdmin(group({ member: { is_owner: false, is_admin: false, permissions: { create_posts: false }, mute: null } }), 1)).toBe(
      false,
    );
    const pair = group({ is_group: false, users: [person(1, 'Me'), person(9, 'Friend')] });
    expect(otherMember(pair, 1)?.user.nickname).toBe('Friend');
  });

  it('lists admins first (the user first among equals), then by name', () => {
    expect(sortedMembers(group(), 1).map(displayName)).toEqual(['Me', 'Bert', 'Anna', 'Zed']);
    expect(displayName(person(5, '', false, '+46700000005'))).toBe('+46700000005');
  });

  it('shows the panel only for the chat it was opened for, while the chats list is shown', () => {
    const panel = { conversationId: 7, view: { kind: 'chatSettings' as const } };
    expect(shownPanel(panel, 7, true)).toEqual({ kind: 'chatSettings' });
    expect(shownPanel(panel, 8, true)).toBeNull();
    expect(shownPanel(panel, 7, false)).toBeNull();
    expect(shownPanel(null, 7, true)).toBeNull();
  });
});
