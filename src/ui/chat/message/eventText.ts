import type { TFunction } from 'i18next';
import type { Attachment, Conversation, EventType, Message } from '../../../protocol/entities';
import { inSentence } from '../../common/bidi';
import { findMember } from './members';

/** A member's nickname from the conversation's member list, or null when they are not listed. */
export function memberName(conversation: Conversation, userId: number): string | null {
  return findMember(conversation, userId)?.nickname ?? null;
}

/** What a system message's sentence is made of: who did it, what, to whom (spec §3 event attachments). */
export interface EventFacts {
  /** The sender of the system message: who made the change. */
  actorId: number;
  eventType: EventType | null | undefined;
  event: Attachment['event'] | null | undefined;
  /** The message's own text, said when the event type is not known. */
  text: string;
}

/**
 * The sentence of a system message (spec §3 event types) in the user's language, the same in the chat and
 * in the chats list's preview. The signed-in user is "you" in the right case and place: "You removed
 * Sara", "Erik added you" ("Du tog bort Sara", "Erik lade till dig"), each its own text so that both
 * languages get their word order and case right. A name the event carries wins over `nameOf` (a removed
 * member is no longer listed); someone not known at all is "Someone" (or "someone" after the verb).
 */
export function eventSentence(
  facts: EventFacts,
  selfId: number | null,
  nameOf: (userId: number) => string | null,
  t: TFunction,
): string {
  const event = facts.event ?? {};
  // Names and texts go inside our sentence: none of their bidi controls may turn the sentence around.
  const known = (userId: number | undefined, carried?: string) => {
    const name = carried || (userId !== undefined ? nameOf(userId) : null);
    return name ? inSentence(name) : null;
  };
  // Whoever is not known is "Someone" opening a sentence and "someone" inside one.
  const nameFor = (userId: number | undefined, carried?: string) => known(userId, carried) || t('chat.someone');
  const objectFor = (userId: number | undefined, carried?: string) => known(userId, carried) || t('chat.events.someone');
  const bySelf = facts.actorId === selfId;
  const actor = nameFor(facts.actorId);
  // The signed-in user's own change has its own sentence ("You renamed…", "Du döpte om…").
  const key = (other: string, own: string) => (bySelf ? own : other);
  switch (facts.eventType) {
    case 'conversation_renamed':
      return t(key('chat.events.renamed', 'chat.events.renamedBySelf'), { actor, name: inSentence(event.name ?? '') });
    case 'conversation_description_changed':
      return event.description
        ? t(key('chat.events.descriptionChanged', 'chat.events.descriptionChangedBySelf'), { actor, description: inSentence(event.description) })
        : t(key('chat.events.descriptionRemoved', 'chat.events.descriptionRemovedBySelf'), { actor });
    case 'conversation_picture_change':
      return t(key('chat.events.pictureChanged', 'chat.events.pictureChangedBySelf'), { actor });
    case 'user_added': {
      const added = event.user_ids?.length ? event.user_ids : event.user_id !== undefined ? [event.user_id] : [];
      const more = Math.max(0, added.length - 1);
      if (added.length === 1 && added[0] === facts.actorId) {
        return bySelf ? t('chat.events.joinedSelf') : t('chat.events.joined', { name: nameFor(facts.actorId, event.name) });
      }
      // Whoever else is added, the reader hears about themselves first.
      if (!bySelf && selfId !== null && added.includes(selfId)) {
        return more > 0 ? t('chat.events.addedYouAndMore', { actor, count: more }) : t('chat.events.addedYou', { actor });
      }
      const first = added[0] ?? event.user_id;
      // The carried name is the first added person's (docs/server.md).
      const name = objectFor(first, first === event.user_id ? event.name : undefined);
      return more > 0 ? t(key('chat.events.addedMore', 'chat.events.addedMoreBySelf'), { actor, name, count: more }) : t(key('chat.events.added', 'chat.events.addedBySelf'), { actor, name });
    }
    case 'user_removed': {
      const target = event.user_id;
      if (target === facts.actorId) {
        return bySelf ? t('chat.events.leftSelf') : t('chat.events.left', { name: nameFor(target, event.name) });
      }
      if (!bySelf && target !== undefined && target === selfId) return t('chat.events.removedYou', { actor });
      return t(key('chat.events.removed', 'chat.events.removedBySelf'), { actor, name: objectFor(target, event.name) });
    }
    case 'user_renamed': {
      const newName = event.new_nickname ? inSentence(event.new_nickname) : nameFor(event.user_id);
      if (event.user_id !== undefined && event.user_id === selfId) return t('chat.events.userRenamedSelf', { newName });
      return t('chat.events.userRenamed', { oldName: event.old_nickname ? inSentence(event.old_nickname) : t('chat.someone'), newName });
    }
    default:
      return facts.text ? inSentence(facts.text) : t('chat.events.unknown');
  }
}

/** Whether a message is a system line (spec §3 event attachments) rather than a bubble. */
export function isEventMessage(message: Message): boolean {
  return message.type === 'system' || (message.attachment?.type === 'event' && Boolean(message.attachment.event_type));
}

/** The sentence of a system message in the chat, naming people from the conversation's member list. */
export function eventText(message: Message, conversation: Conversation, selfId: number, t: TFunction): string {
  return eventSentence(
    {
      actorId: message.user_id,
      eventType: message.attachment?.event_type,
      event: message.attachment?.event,
      text: message.message,
    },
    selfId,
    (userId) => memberName(conversation, userId),
    t,
  );
}
