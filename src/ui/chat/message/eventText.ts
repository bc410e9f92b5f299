import type { TFunction } from 'i18next';
import type { Conversation, Message } from '../../../protocol/entities';
import { findMember } from './members';

/** A member's nickname from the conversation's member list, or null when they are not listed. */
export function memberName(conversation: Conversation, userId: number): string | null {
  return findMember(conversation, userId)?.nickname ?? null;
}

/**
 * The sentence of a system message (spec §3 event types) in the user's language. "You" stands in for the
 * signed-in user; a name the event carries wins over the member list (a removed member is no longer on it).
 */
export function eventText(message: Message, conversation: Conversation, selfId: number, t: TFunction): string {
  const attachment = message.attachment;
  const event = attachment?.event ?? {};
  const someone = t('chat.someone');
  const nameOf = (userId: number | undefined, carried?: string) => {
    if (userId === selfId) return t('chat.you');
    return carried || (userId !== undefined ? memberName(conversation, userId) : null) || someone;
  };
  const actorIsSelf = message.user_id === selfId;
  const actor = nameOf(message.user_id);
  switch (attachment?.event_type) {
    case 'conversation_renamed':
      return actorIsSelf
        ? t('chat.events.renamedBySelf', { name: event.name ?? '' })
        : t('chat.events.renamed', { actor, name: event.name ?? '' });
    case 'conversation_description_changed':
      return event.description
        ? actorIsSelf
          ? t('chat.events.descriptionChangedBySelf', { description: event.description })
          : t('chat.events.descriptionChanged', { actor, description: event.description })
        : actorIsSelf
          ? t('chat.events.descriptionRemovedBySelf')
          : t('chat.events.descriptionRemoved', { actor });
    case 'conversation_picture_change':
      return actorIsSelf ? t('chat.events.pictureChangedBySelf') : t('chat.events.pictureChanged', { actor });
    case 'user_added': {
      const added = event.user_ids ?? (event.user_id !== undefined ? [event.user_id] : []);
      const first = nameOf(added[0] ?? event.user_id, event.name);
      const more = Math.max(0, added.length - 1);
      if (more > 0) {
        return actorIsSelf
          ? t('chat.events.addedManyBySelf', { name: first, count: more })
          : t('chat.events.addedMany', { actor, name: first, count: more });
      }
      return actorIsSelf ? t('chat.events.addedBySelf', { name: first }) : t('chat.events.added', { actor, name: first });
    }
    case 'user_removed': {
      const target = event.user_id;
      if (target === message.user_id) {
        return actorIsSelf ? t('chat.events.leftSelf') : t('chat.events.left', { name: nameOf(target, event.name) });
      }
      if (target === selfId) return t('chat.events.removedSelf', { actor });
      return actorIsSelf
        ? t('chat.events.removedBySelf', { name: nameOf(target, event.name) })
        : t('chat.events.removed', { actor, name: nameOf(target, event.name) });
    }
    case 'user_renamed':
      return t('chat.events.userRenamed', {
        oldName: event.old_nickname || someone,
        newName: event.new_nickname || nameOf(event.user_id),
      });
    default:
      return message.message || t('chat.events.unknown');
  }
}
