import type { MessageSearchHit } from '../../engine/api';

/** The search parameter of a chat's URL that opens it at a message: `/inbox/12?message=345` (issue 13). */
export const MESSAGE_PARAM = 'message';

/** Where a search hit opens: its chat at the message, or a post's (or a comment's post's) channel at the post. */
export function hitTarget(hit: MessageSearchHit): { conversationId: number; messageId: number } | null {
  if (hit.kind === 'message') return hit.conversationId === null ? null : { conversationId: hit.conversationId, messageId: hit.id };
  // A channel is a conversation whose messages are its posts; a comment opens its post there (docs/ui.md).
  const messageId = hit.kind === 'comment' ? hit.postId : hit.id;
  return hit.channelId === null || messageId === null ? null : { conversationId: hit.channelId, messageId };
}

/**
 * Who a hit is from, as its row says it: the user's own is "You" (`you`, translated), as in the list's
 * previews and quotes, never their own name (issue 23); '' when the sender is not known.
 */
export function hitSender(hit: Pick<MessageSearchHit, 'fromSelf' | 'senderName'>, you: string): string {
  return hit.fromSelf ? you : hit.senderName;
}

/** The message a chat's URL asks to open at (its `message` search parameter), or null. */
export function messageParamOf(search: unknown): number | null {
  const raw = search !== null && typeof search === 'object' ? (search as Record<string, unknown>)[MESSAGE_PARAM] : undefined;
  const id = typeof raw === 'number' ? raw : typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
