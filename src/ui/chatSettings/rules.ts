import type { Conversation, ConversationUser } from '../../protocol/entities';

/** Spec §5 rename: at most 50 characters after trimming. */
export const RENAME_MAX = 50;

export type RenameCheck = { kind: 'unchanged' } | { kind: 'empty' } | { kind: 'tooLong' } | { kind: 'ok'; name: string };

/** Spec §5 rename: trimmed, 1 to 50 characters; the unchanged name just closes the editor. */
export function checkRename(raw: string, current: string): RenameCheck {
  const name = raw.trim();
  if (name === current.trim()) return { kind: 'unchanged' };
  if (!name) return { kind: 'empty' };
  if ([...name].length > RENAME_MAX) return { kind: 'tooLong' };
  return { kind: 'ok', name };
}

/** The member's user id: member rows carry `user_id` (and `id`, the same person). */
export const memberId = (member: ConversationUser): number => member.user.user_id ?? member.user.id;

/** Channels and community feeds have no settings at all (spec §2). */
export const hasSettings = (c: Conversation): boolean => c.group_type !== 'channel' && c.group_type !== 'feed';

/** Spec §3: settings.reply_to '1' is a broadcast group, whose admins are called broadcasters. */
export const isBroadcast = (c: Conversation): boolean => c.settings?.reply_to === '1';

export function isAdminMember(c: Conversation, userId: number): boolean {
  const member = c.users.find((u) => memberId(u) === userId);
  return member ? member.is_admin : c.admins.includes(userId);
}

/** The signed-in user's own admin flag (the server's `member`), else their row in `users`. */
export function selfIsAdmin(c: Conversation, selfId: number): boolean {
  return c.member?.is_admin ?? isAdminMember(c, selfId);
}

/** The other person of a one-to-one chat. */
export function otherMember(c: Conversation, selfId: number): ConversationUser | null {
  return c.users.find((u) => memberId(u) !== selfId) ?? null;
}

/** Admins first, then by name, so the people who run the group are found at once. */
export function sortedMembers(c: Conversation, selfId: number): ConversationUser[] {
  return [...c.users].sort(
    (a, b) =>
      Number(b.is_admin) - Number(a.is_admin) ||
      Number(memberId(b) === selfId) - Number(memberId(a) === selfId) ||
      displayName(a).localeCompare(displayName(b)),
  );
}

/** A member's nickname, else their number (someone who has not signed in yet has no nickname). */
export function displayName(member: ConversationUser): string {
  return member.user.nickname || member.user.phone_nr || '';
}

export function memberImage(member: ConversationUser): string | null {
  const meta = member.user.image?.meta;
  return meta && !meta.is_default ? meta.thumbnail || meta.url : null;
}
