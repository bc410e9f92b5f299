import { describe, expect, it } from 'vitest';
import type { Conversation, Message } from '../../../src/protocol/entities';
import { canReply, reactedBy, reactionUserNames, showsReactionUsers } from '../../../src/ui/chat/actions/actionRules';
import {
  attachmentProblem,
  canSubmit,
  enterAction,
  sendBlock,
  truncate,
} from '../../../src/ui/chat/composer/sendRules';

function conversation(patch: Partial<Conversation> & { admin?: boolean; owner?: boolean; createPosts?: boolean } = {}) {
  const { admin = false, owner = false, createPosts = false, ...rest } = patch;
  return {
    is_demo: false,
    is_community_announcements: false,
    read_only: false,
    group_type: 'normal',
    is_group: true,
    settings: { reply_to: '0', show_numbers_to_all: '0', user_notifications_to_all: '0', all_invite: '1' },
    member: { is_admin: admin, is_owner: owner, permissions: { create_posts: createPosts } },
    users: [],
    ...rest,
  } as unknown as Conversation;
}

describe('attachment rules (spec §5)', () => {
  const MB = 1024 * 1024;
  it('accepts the image and video types of the spec', () => {
    for (const type of [
      'image/jpeg',
      'image/jpg',
      'image/png',
      'image/gif',
      'image/webp',
      'video/mp4',
      'video/webm',
      'video/ogg',
      'video/quicktime',
      'video/x-msvideo',
    ]) {
      expect(attachmentProblem({ name: 'f', type, size: 1000 }), type).toBeNull();
    }
  });

  it('refuses other types, an empty type included', () => {
    for (const type of ['text/plain', 'application/pdf', 'image/svg+xml', 'audio/mpeg', 'image/bmp', '']) {
      expect(attachmentProblem({ name: 'f.bin', type, size: 10 }), type).toBe('fileTypeNotSupported');
    }
  });

  it('allows exactly 50 MB and refuses one byte more', () => {
    expect(attachmentProblem({ name: 'f', type: 'video/mp4', size: 52_428_800 })).toBeNull();
    expect(attachmentProblem({ name: 'f', type: 'video/mp4', size: 52_428_801 })).toBe('fileTooLarge');
    expect(attachmentProblem({ name: 'f', type: 'image/png', size: 60 * MB })).toBe('fileTooLarge');
  });

  it('goes by the extension when the browser names no type', () => {
    expect(attachmentProblem({ name: 'clip.MOV', type: '', size: 10 })).toBeNull();
    expect(attachmentProblem({ name: 'photo.jpg', type: '', size: 10 })).toBeNull();
    expect(attachmentProblem({ name: 'notes.txt', type: '', size: 10 })).toBe('fileTypeNotSupported');
    expect(attachmentProblem({ name: 'notes.txt', type: 'text/plain', size: 10 })).toBe('fileTypeNotSupported');
  });

  it('names the type problem first for a file that is both wrong and too big', () => {
    expect(attachmentProblem({ name: 'f', type: 'text/plain', size: 60 * MB })).toBe('fileTypeNotSupported');
  });
});

describe('sending (spec §5)', () => {
  it('needs non-blank text or a file', () => {
    expect(canSubmit('', false)).toBe(false);
    expect(canSubmit('  \n ', false)).toBe(false);
    expect(canSubmit('hi', false)).toBe(true);
    expect(canSubmit('', true)).toBe(true);
  });

  const key = (patch: Partial<Parameters<typeof enterAction>[0]> = {}) => ({
    key: 'Enter',
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    isComposing: false,
    ...patch,
  });

  it('sends on Enter with enter-to-send on', () => {
    expect(enterAction(key(), true)).toBe('send');
    expect(enterAction(key({ ctrlKey: true }), true)).toBe('send');
  });

  it('sends on Ctrl+Enter (or Cmd+Enter) with enter-to-send off, Enter makes a newline', () => {
    expect(enterAction(key(), false)).toBe('newline');
    expect(enterAction(key({ ctrlKey: true }), false)).toBe('send');
    expect(enterAction(key({ metaKey: true }), false)).toBe('send');
  });

  it('always makes a newline on Shift+Enter', () => {
    expect(enterAction(key({ shiftKey: true }), true)).toBe('newline');
    expect(enterAction(key({ shiftKey: true, ctrlKey: true }), false)).toBe('newline');
  });

  it('leaves other keys and a composing input method alone', () => {
    expect(enterAction(key({ key: 'a' }), true)).toBeNull();
    expect(enterAction(key({ isComposing: true }), true)).toBeNull();
  });
});

describe('who may send (spec §6)', () => {
  it('lets nobody write in a demo chat', () => {
    expect(sendBlock(conversation({ is_demo: true, admin: true }), false)).toBe('demo');
  });

  it('takes announcements from admins holding create_posts only', () => {
    const feed = { is_community_announcements: true, group_type: 'feed' as const };
    expect(sendBlock(conversation(feed), false)).toBe('announcementsAdminsOnly');
    expect(sendBlock(conversation({ ...feed, admin: true }), false)).toBe('announcementsAdminsOnly');
    expect(sendBlock(conversation({ ...feed, createPosts: true }), false)).toBe('announcementsAdminsOnly');
    expect(sendBlock(conversation({ ...feed, admin: true, createPosts: true }), false)).toBeNull();
  });

  it('takes channel messages from anyone unless read-only, then from admins only', () => {
    const channel = { group_type: 'channel' as const };
    expect(sendBlock(conversation(channel), false)).toBeNull();
    expect(sendBlock(conversation({ ...channel, read_only: true }), false)).toBe('channelAdminsOnly');
    expect(sendBlock(conversation({ ...channel, read_only: true, admin: true }), false)).toBeNull();
    expect(sendBlock(conversation({ ...channel, read_only: true, owner: true }), false)).toBeNull();
  });

  it('lets broadcast members only reply, and broadcasters post', () => {
    const broadcast = conversation({
      settings: { reply_to: '1', show_numbers_to_all: '1', user_notifications_to_all: '1', all_invite: '1' },
    });
    expect(sendBlock(broadcast, false)).toBe('broadcastReplyOnly');
    expect(sendBlock(broadcast, true)).toBeNull();
    expect(sendBlock({ ...broadcast, member: { ...broadcast.member, is_admin: true } }, false)).toBeNull();
  });

  it('lets everybody write in normal chats', () => {
    expect(sendBlock(conversation({ is_group: false }), false)).toBeNull();
    expect(sendBlock(conversation(), false)).toBeNull();
  });
});

describe('replies and reactions (spec §6)', () => {
  it('offers reply in normal chats, and in channels to community admins and owners only', () => {
    expect(canReply(conversation())).toBe(true);
    expect(canReply(conversation({ is_demo: true }))).toBe(false);
    expect(canReply(conversation({ group_type: 'channel' }))).toBe(false);
    expect(canReply(conversation({ group_type: 'channel', admin: true }))).toBe(true);
    expect(canReply(conversation({ group_type: 'feed', owner: true }))).toBe(true);
  });

  it('hides who reacted in community channels only', () => {
    expect(showsReactionUsers({ group_type: 'normal' })).toBe(true);
    expect(showsReactionUsers({ group_type: 'channel' })).toBe(false);
    expect(showsReactionUsers({ group_type: 'feed' })).toBe(false);
  });

  it('names who reacted: members by nickname, the user as self, strangers as unknown', () => {
    const users = [
      { user: { id: 1, user_id: 1, nickname: 'Anna' }, is_admin: false },
      { user: { id: 2, user_id: 2, nickname: 'Erik' }, is_admin: false },
    ] as unknown as Conversation['users'];
    expect(reactionUserNames([2, 1, 9], { users }, 1, { self: 'You', unknown: 'Someone' })).toEqual([
      'Erik',
      'You',
      'Someone',
    ]);
  });

  it('tells whether the user reacted with an emoji', () => {
    const message = { reactions: [{ reaction: '👍', users: [{ user_id: 3, set_at: '1' }] }] } as unknown as Message;
    expect(reactedBy(message, '👍', 3)).toBe(true);
    expect(reactedBy(message, '👍', 4)).toBe(false);
    expect(reactedBy(message, '❤️', 3)).toBe(false);
  });
});

describe('display limits (spec §5, §9)', () => {
  it('cuts previews at 100 characters without splitting an emoji', () => {
    expect(truncate('a'.repeat(100))).toBe('a'.repeat(100));
    expect(truncate('a'.repeat(101))).toBe(`${'a'.repeat(100)}…`);
    expect(truncate('😀'.repeat(101))).toBe(`${'😀'.repeat(100)}…`);
  });
});
