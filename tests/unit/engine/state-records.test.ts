import { describe, expect, it } from 'vitest';
import { sameJson } from '../../../src/engine/state/records';
import { conversation, message } from './state.fixtures';

describe('sameJson: the one equality for server entities', () => {
  it('equal when every field is, however deep', () => {
    expect(sameJson(conversation(1), conversation(1))).toBe(true);
    expect(sameJson(message(1, { reactions: [{ reaction: '👍', users: [{ user_id: 2, set_at: '1' }] }] }), message(1, { reactions: [{ reaction: '👍', users: [{ user_id: 2, set_at: '1' }] }] }))).toBe(true);
    expect(sameJson(null, null)).toBe(true);
  });

  it('different on any field, deep or shallow, and on missing or extra keys', () => {
    const base = conversation(1);
    const renamed = conversation(1, { users: base.users.map((u, i) => (i === 2 ? { ...u, user: { ...u.user, nickname: 'new' } } : u)) });
    expect(sameJson(base, renamed)).toBe(false);
    expect(sameJson(base, { ...base, name: 'other' })).toBe(false);
    expect(sameJson(message(1), { ...message(1), extra: 1 })).toBe(false);
    expect(sameJson({ a: 1, b: 2 }, { a: 1, c: 2 })).toBe(false);
    expect(sameJson([1, 2], [1, 2, 3])).toBe(false);
    expect(sameJson([], {})).toBe(false);
    expect(sameJson({ a: null }, { a: {} })).toBe(false);
    expect(sameJson('1', 1)).toBe(false);
  });
});
