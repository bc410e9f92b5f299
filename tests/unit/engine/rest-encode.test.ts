import { describe, expect, it } from 'vitest';
import { encodeForm, encodeQuery, joinUrl, pathId } from '../../../src/engine/rest/encode';
import { FALLBACKS, fallbackFor } from '../../../src/engine/rest/fallbacks';

describe('REST encodings', () => {
  it('encodes forms with bracket keys and leaves out undefined fields', () => {
    const body = encodeForm({
      name: 'Team & friends',
      description: undefined,
      settings: { reply_to: '1', all_invite: undefined },
      member: [
        { name: 'Bob', type: 'phone_nr', value: '+46701234567', is_admin: undefined },
        { name: 'Åsa', type: 'stid', value: 'u_1' },
      ],
    });
    expect([...new URLSearchParams(body)]).toEqual([
      ['name', 'Team & friends'],
      ['settings[reply_to]', '1'],
      ['member[0][name]', 'Bob'],
      ['member[0][type]', 'phone_nr'],
      ['member[0][value]', '+46701234567'],
      ['member[1][name]', 'Åsa'],
      ['member[1][type]', 'stid'],
      ['member[1][value]', 'u_1'],
    ]);
  });

  it('builds query strings without undefined values', () => {
    expect(encodeQuery({ limit: 20, before: undefined, only_joined: true })).toBe('?limit=20&only_joined=true');
    expect(encodeQuery({ before: undefined })).toBe('');
  });

  it('escapes ids in paths and refuses ids that name nothing', () => {
    expect(pathId(12)).toBe('12');
    expect(pathId('c_ab/../x')).toBe('c_ab%2F..%2Fx');
    expect(pathId(0)).toBeNull();
    expect(pathId(-3)).toBeNull();
    expect(pathId(1.5)).toBeNull();
    expect(pathId('  ')).toBeNull();
    expect(pathId('x'.repeat(65))).toBeNull();
  });

  it('joins a base with or without a trailing slash', () => {
    expect(joinUrl('http://h:1/', '/v1/me')).toBe('http://h:1/v1/me');
    expect(joinUrl('http://h:1', '/v1/me')).toBe('http://h:1/v1/me');
  });

  it('keeps one spec §8 text per call, with network texts where the catalogue has them', () => {
    expect(FALLBACKS.sendMessage).toBe('Failed to send message');
    expect(fallbackFor('sendMessage', 'network')).toBe('Failed to send message');
    expect(fallbackFor('getConversations', 'network')).toBe('Failed to fetch conversations list');
    expect(fallbackFor('getComments', 'answer')).toBe('Failed to fetch comments');
    expect(fallbackFor('getComments', 'network')).toBe('Network error occurred while fetching post comments');
    expect(fallbackFor('getCommunities', 'network')).toBe('Network error occurred');
    expect(fallbackFor('addReaction', 'network')).toBe('Network error occurred while adding a reaction');
    expect(fallbackFor('addReaction', 'answer')).toBe('Failed to add reaction');
    expect(fallbackFor('leaveConversation', 'network')).toBe('Network error occurred while leaving the group');
    expect(fallbackFor('setAdmin', 'network')).toBe('Network error occurred while promoting or demoting a member');
    expect(fallbackFor('getCommunities', 'answer')).toBe('An unexpected error occurred');
  });
});
