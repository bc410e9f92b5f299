import {
  attachmentProblem as engineAttachmentProblem,
  FILE_TOO_LARGE,
  FILE_TYPE_NOT_SUPPORTED,
  type FileFacts,
} from '../../../engine/api';
import { MESSAGE_TEXT_MAX } from '../../../protocol/constants';
import type { Conversation } from '../../../protocol/entities';

/** Pure rules of the composer (spec §5 "Message attachment", "Sending", "Display limits"; §6 "Sending"). */

/** Spec §5: the edit preview (and the reply preview with it) is cut at 100 characters. */
export const PREVIEW_MAX_CHARS = 100;
/** Spec §9: the input grows up to 160 px, then scrolls. */
export const INPUT_MAX_HEIGHT_PX = 160;

export type AttachmentProblem = 'fileTypeNotSupported' | 'fileTooLarge';

/**
 * Why a file cannot be attached, or null when it can: the engine's own rule (spec §5), named so the UI
 * shows its translated text for it. The server checks the bytes again.
 */
export function attachmentProblem(file: FileFacts): AttachmentProblem | null {
  const problem = engineAttachmentProblem(file);
  if (problem === FILE_TYPE_NOT_SUPPORTED) return 'fileTypeNotSupported';
  if (problem === FILE_TOO_LARGE) return 'fileTooLarge';
  return null;
}

/** The composer counts down once this few characters are left (docs/ui.md "Sending"): quiet until then. */
export const COUNTER_FROM_LEFT = 1_000;

/**
 * How many characters the text may still grow by, as the server counts them (the trimmed text's UTF-16
 * length, at most MESSAGE_TEXT_MAX); negative when it is over.
 */
export function charactersLeft(text: string): number {
  return MESSAGE_TEXT_MAX - text.trim().length;
}

/** Spec §5 "Sending": a send needs non-empty text or a file. */
export function canSubmit(text: string, hasFile: boolean): boolean {
  return hasFile || text.trim() !== '';
}

/** Why this user cannot write in a conversation (spec §6), or null when the input is shown. */
export type SendBlock = 'demo' | 'announcementsAdminsOnly' | 'channelAdminsOnly' | 'broadcastReplyOnly';

/** An admin (or owner) of the conversation; in a community channel, a community admin. */
export const isAdmin = (c: Conversation) => c.member.is_admin || c.member.is_owner;

/**
 * Spec §6: demo chats never send; announcements take posts from admins with create_posts; other community
 * channels from admins, or anyone unless read-only. In a broadcast group (settings.reply_to '1') members
 * who are not broadcasters may only reply to a message (docs/server.md), so their input waits for a reply.
 */
export function sendBlock(conversation: Conversation, replying: boolean): SendBlock | null {
  if (conversation.is_demo) return 'demo';
  if (conversation.is_community_announcements) {
    return isAdmin(conversation) && conversation.member.permissions.create_posts ? null : 'announcementsAdminsOnly';
  }
  if (isCommunityChat(conversation)) {
    return isAdmin(conversation) || !conversation.read_only ? null : 'channelAdminsOnly';
  }
  if (conversation.settings.reply_to === '1' && !isAdmin(conversation) && !replying) return 'broadcastReplyOnly';
  return null;
}

/** A community channel or feed (announcements): spec §3 group_type. */
export function isCommunityChat(conversation: Pick<Conversation, 'group_type'>): boolean {
  return conversation.group_type === 'channel' || conversation.group_type === 'feed';
}

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  /** An input method is composing (e.g. Japanese): its Enter confirms the composition, never sends. */
  isComposing: boolean;
}

/**
 * What Enter does (spec §5): with enter-to-send on, Enter sends; otherwise Ctrl+Enter (Cmd+Enter on a
 * Mac) sends and Enter is a newline. Shift+Enter is always a newline. 'newline' leaves the key to the
 * textarea; null means the key is not the composer's business.
 */
export function enterAction(key: KeyPress, enterToSend: boolean): 'send' | 'newline' | null {
  if (key.key !== 'Enter' || key.isComposing) return null;
  if (key.shiftKey) return 'newline';
  const modified = key.ctrlKey || key.metaKey;
  if (enterToSend) return 'send';
  return modified ? 'send' : 'newline';
}

/** Cuts a preview at `max` characters (whole code points, so an emoji is never split), with an ellipsis. */
export function truncate(text: string, max = PREVIEW_MAX_CHARS): string {
  const points = Array.from(text);
  return points.length <= max ? text : `${points.slice(0, max).join('')}…`;
}
