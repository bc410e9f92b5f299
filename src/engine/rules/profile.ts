import { AVATAR_MAX_BYTES, NICKNAME_MAX } from '../../protocol/constants';

/** Profile and picture rules (spec §5), shared by the login's nickname step, account editing and group pictures. */

export type NicknameProblem = 'pleaseEnterNickname' | 'nicknameTooLong';

/** Spec §5: the nickname is trimmed and must be 1 to 50 characters. The problem, or null when valid. */
export function nicknameError(raw: string): NicknameProblem | null {
  const trimmed = raw.trim();
  if (trimmed === '') return 'pleaseEnterNickname';
  // Counted in characters as people see them, so an emoji is one and not two UTF-16 units.
  if ([...trimmed].length > NICKNAME_MAX) return 'nicknameTooLong';
  return null;
}

export type AvatarProblem = 'notImage' | 'tooBig';

/** Spec §5 avatar upload: only an image, at most 3,145,728 bytes (the server reads the real type from the bytes too). */
export function avatarProblem(file: { type: string; size: number }): AvatarProblem | null {
  if (!file.type.startsWith('image/')) return 'notImage';
  if (file.size > AVATAR_MAX_BYTES) return 'tooBig';
  return null;
}
