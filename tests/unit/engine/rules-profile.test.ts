import { describe, expect, it } from 'vitest';
import { avatarProblem, nicknameError } from '../../../src/engine/rules/profile';
import { AVATAR_MAX_BYTES } from '../../../src/protocol/constants';

describe('the nickname', () => {
  it('must have 1 to 50 characters once trimmed', () => {
    expect(nicknameError('')).toBe('pleaseEnterNickname');
    expect(nicknameError('   \t ')).toBe('pleaseEnterNickname');
    expect(nicknameError(' Lovisa ')).toBeNull();
    expect(nicknameError('a'.repeat(50))).toBeNull();
    expect(nicknameError(` ${'a'.repeat(50)} `)).toBeNull();
    expect(nicknameError('a'.repeat(51))).toBe('nicknameTooLong');
    // Characters as people count them: fifty emoji are fifty characters.
    expect(nicknameError('🙂'.repeat(50))).toBeNull();
  });
});

describe('an avatar', () => {
  it('is an image of up to 3 MB (spec §5)', () => {
    expect(AVATAR_MAX_BYTES).toBe(3_145_728);
    expect(avatarProblem({ type: 'image/png', size: AVATAR_MAX_BYTES })).toBeNull();
    expect(avatarProblem({ type: 'image/jpeg', size: AVATAR_MAX_BYTES + 1 })).toBe('tooBig');
    expect(avatarProblem({ type: 'video/mp4', size: 10 })).toBe('notImage');
    expect(avatarProblem({ type: '', size: 10 })).toBe('notImage');
  });
});
