import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../../src/protocol/entities';
import { AVATAR_PALETTE, avatarColor, CHANNEL_AVATAR_COLOR, initials } from '../../../src/ui/common/avatarColor';
import { conversationAvatarId } from '../../../src/ui/common/avatarId';
import { dayKind } from '../../../src/ui/common/time';

describe('avatar', () => {
  it('takes one colour of the 12-colour palette per id, the same every time (spec §9)', () => {
    expect(AVATAR_PALETTE).toHaveLength(12);
    expect(new Set(AVATAR_PALETTE).size).toBe(12);
    for (const id of [1, 2, 42, 'u7']) {
      expect(AVATAR_PALETTE).toContain(avatarColor(id));
      expect(avatarColor(id)).toBe(avatarColor(id));
    }
    // The hash spreads ids over the palette rather than giving every id one colour.
    expect(new Set(Array.from({ length: 100 }, (_, i) => avatarColor(i))).size).toBeGreaterThan(8);
  });

  it('holds white initials at WCAG AA contrast (4.5:1) on every colour, the channels’ orange-red too', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const colour of [...AVATAR_PALETTE, CHANNEL_AVATAR_COLOR]) {
      expect(1.05 / (luminance(colour) + 0.05), colour).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('makes initials of the first and last word, skipping emoji and symbols', () => {
    expect(initials('Anna')).toBe('A');
    expect(initials('Södermalm Runners')).toBe('SR');
    expect(initials('Bokklubben 📚')).toBe('B');
    expect(initials('welcome to messenger')).toBe('WM');
    expect(initials('📚')).toBe('');
  });
});

describe('day kind', () => {
  const now = new Date(2026, 10, 22, 9, 30);
  it('tells today, yesterday and other days apart by the calendar, not by 24 hours', () => {
    expect(dayKind(new Date(2026, 10, 22, 0, 1), now)).toBe('today');
    expect(dayKind(new Date(2026, 10, 21, 23, 59), now)).toBe('yesterday');
    expect(dayKind(new Date(2026, 10, 20, 12, 0), now)).toBe('other');
  });
});

describe('conversation avatar id', () => {
  const member = (id: number) => ({ user: { id, user_id: id } }) as Conversation['users'][number];
  const chat = (isGroup: boolean) => ({ id: 77, is_group: isGroup, users: [member(1), member(2)] }) as unknown as Conversation;
  it('is the other person in a one-to-one chat, so their colour matches their profile', () => {
    expect(conversationAvatarId(chat(false), 1)).toBe(2);
    expect(conversationAvatarId(chat(false), 2)).toBe(1);
  });
  it('is the conversation in a group', () => {
    expect(conversationAvatarId(chat(true), 1)).toBe(77);
  });
});
