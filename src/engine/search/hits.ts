import type { MessageSearchHit } from '../contract/types';
import type { EngineState } from '../state/types';
import type { SearchDoc } from './documents';
import { buildSnippet } from './snippet';

/** One match: the document, its rank (higher is better), and the folded words of it that matched. */
export interface RawHit {
  doc: SearchDoc;
  score: number;
  terms: readonly string[];
}

/** The member's nickname in a chat, '' when the chat or the member is not known. */
function memberName(state: EngineState, conversationId: number, userId: number): string {
  const users = state.conversations[conversationId]?.users ?? [];
  return users.find(({ user }) => (user.user_id || user.id) === userId)?.user.nickname ?? '';
}

/** A chat's name; a private chat without one is named after the other member. */
function chatTitle(state: EngineState, conversationId: number): string {
  const conversation = state.conversations[conversationId];
  if (!conversation) return '';
  if (conversation.name) return conversation.name;
  const other = conversation.users.find(({ user }) => (user.user_id || user.id) !== state.selfId);
  return other?.user.nickname ?? '';
}

/** A result row as the API gives it: names are read now, so a renamed chat shows its new name. */
export function toHit(raw: RawHit, state: EngineState): MessageSearchHit {
  const { doc } = raw;
  const chat = doc.conversationId;
  const title = chat !== null ? chatTitle(state, chat) : (state.channels[doc.channelId ?? 0]?.name ?? '');
  const senderName = chat !== null ? memberName(state, chat, doc.userId) : (state.participants[doc.userId]?.name ?? '');
  return {
    kind: doc.kind,
    conversationId: doc.conversationId,
    channelId: doc.channelId,
    communityId: doc.communityId,
    postId: doc.postId,
    id: doc.id,
    title,
    senderName,
    fromSelf: state.selfId !== null && doc.userId === state.selfId,
    createdAt: doc.createdAt,
    snippet: buildSnippet(doc.text, raw.terms),
    score: raw.score,
  };
}
