import { NICKNAME_MAX } from '../../protocol/constants';

/** Spec §5: the nickname is trimmed and must be 1 to 50 characters. The error key, or null when valid. */
export function nicknameError(raw: string): 'pleaseEnterNickname' | 'nicknameTooLong' | null {
  const trimmed = raw.trim();
  if (trimmed === '') return 'pleaseEnterNickname';
  // Counted in characters as people see them, so an emoji is one and not two UTF-16 units.
  if ([...trimmed].length > NICKNAME_MAX) return 'nicknameTooLong';
  return null;
}
