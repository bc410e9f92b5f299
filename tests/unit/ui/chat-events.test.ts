import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import type { Attachment, Conversation, EventType, Message } from '../../../src/protocol/entities';
import { eventText, isEventMessage } from '../../../src/ui/chat/message/eventText';
import { createI18n } from '../../../src/ui/i18n';

/** Anna (1) reads; Erik (2) and Sara (3) are members; Olle (4) is not listed (removed, or never known). */
const ANNA = 1;
const ERIK = 2;
const SARA = 3;
const OLLE = 4;
const member = (id: number, nickname: string) => ({ user: { id, user_id: id, nickname }, is_admin: false });
const conversation = { users: [member(ANNA, 'Anna'), member(ERIK, 'Erik'), member(SARA, 'Sara')] } as unknown as Conversation;
const event = (userId: number, eventType: EventType | undefined, e: Attachment['event'] = {}, text = ''): Message =>
  ({ id: 1, user_id: userId, type: 'system', message: text, attachment: { type: 'event', event_type: eventType, event: e } }) as Message;

let en: TFunction;
let sv: TFunction;
beforeAll(async () => {
  en = (await createI18n('en')).t;
  sv = (await createI18n('sv')).t;
});

/** [what happened, the message, English, Swedish]: every event type with the reader as actor, target or neither. */
const CASES: [string, Message, string, string][] = [
  ['someone else renames', event(ERIK, 'conversation_renamed', { name: 'Readers' }), 'Erik renamed the group to “Readers”', 'Erik döpte om gruppen till ”Readers”'],
  ['you rename', event(ANNA, 'conversation_renamed', { name: 'Readers' }), 'You renamed the group to “Readers”', 'Du döpte om gruppen till ”Readers”'],
  ['someone else describes', event(ERIK, 'conversation_description_changed', { description: 'Books' }), 'Erik changed the description to “Books”', 'Erik ändrade beskrivningen till ”Books”'],
  ['you describe', event(ANNA, 'conversation_description_changed', { description: 'Books' }), 'You changed the description to “Books”', 'Du ändrade beskrivningen till ”Books”'],
  ['someone else clears the description', event(ERIK, 'conversation_description_changed', { description: '' }), 'Erik removed the description', 'Erik tog bort beskrivningen'],
  ['you clear the description', event(ANNA, 'conversation_description_changed', {}), 'You removed the description', 'Du tog bort beskrivningen'],
  ['someone else changes the picture', event(ERIK, 'conversation_picture_change'), 'Erik changed the group picture', 'Erik bytte gruppbild'],
  ['you change the picture', event(ANNA, 'conversation_picture_change'), 'You changed the group picture', 'Du bytte gruppbild'],

  ['someone else adds someone else', event(ERIK, 'user_added', { user_id: SARA, user_ids: [SARA], name: 'Sara' }), 'Erik added Sara', 'Erik lade till Sara'],
  ['someone else adds you', event(ERIK, 'user_added', { user_id: ANNA, user_ids: [ANNA], name: 'Anna' }), 'Erik added you', 'Erik lade till dig'],
  ['you add someone', event(ANNA, 'user_added', { user_id: SARA, user_ids: [SARA], name: 'Sara' }), 'You added Sara', 'Du lade till Sara'],
  ['someone else adds three', event(ERIK, 'user_added', { user_id: SARA, user_ids: [SARA, OLLE, 5], name: 'Sara' }), 'Erik added Sara and 2 others', 'Erik lade till Sara och 2 personer till'],
  ['someone else adds two', event(ERIK, 'user_added', { user_id: SARA, user_ids: [SARA, OLLE], name: 'Sara' }), 'Erik added Sara and one other', 'Erik lade till Sara och en person till'],
  ['you add two', event(ANNA, 'user_added', { user_id: SARA, user_ids: [SARA, OLLE], name: 'Sara' }), 'You added Sara and one other', 'Du lade till Sara och en person till'],
  ['you add three', event(ANNA, 'user_added', { user_id: OLLE, user_ids: [OLLE, SARA, 5], name: 'Olle' }), 'You added Olle and 2 others', 'Du lade till Olle och 2 personer till'],
  // Among several, the reader hears about themselves first, wherever they are in the list.
  ['someone else adds you and two more', event(ERIK, 'user_added', { user_id: SARA, user_ids: [SARA, ANNA, OLLE], name: 'Sara' }), 'Erik added you and 2 others', 'Erik lade till dig och 2 personer till'],
  ['someone else adds you and one more', event(ERIK, 'user_added', { user_id: ANNA, user_ids: [ANNA, OLLE], name: 'Anna' }), 'Erik added you and one other', 'Erik lade till dig och en person till'],
  ['someone joins', event(SARA, 'user_added', { user_id: SARA, user_ids: [SARA], name: 'Sara' }), 'Sara joined', 'Sara gick med i gruppen'],
  ['you join', event(ANNA, 'user_added', { user_id: ANNA, user_ids: [ANNA] }), 'You joined', 'Du gick med i gruppen'],
  // An older add event names one person and has no list.
  ['someone else adds one (no list)', event(ERIK, 'user_added', { user_id: SARA, name: 'Sara' }), 'Erik added Sara', 'Erik lade till Sara'],

  ['someone else removes someone else', event(ERIK, 'user_removed', { user_id: OLLE, name: 'Olle' }), 'Erik removed Olle', 'Erik tog bort Olle'],
  ['someone else removes you', event(ERIK, 'user_removed', { user_id: ANNA, name: 'Anna' }), 'Erik removed you', 'Erik tog bort dig'],
  ['you remove someone', event(ANNA, 'user_removed', { user_id: SARA, name: 'Sara' }), 'You removed Sara', 'Du tog bort Sara'],
  ['someone leaves', event(SARA, 'user_removed', { user_id: SARA, name: 'Sara' }), 'Sara left', 'Sara lämnade gruppen'],
  ['you leave', event(ANNA, 'user_removed', { user_id: ANNA }), 'You left', 'Du lämnade gruppen'],

  ['someone else renames themselves', event(SARA, 'user_renamed', { user_id: SARA, old_nickname: 'Sara', new_nickname: 'Sarah' }), 'Sara is now Sarah', 'Sara heter nu Sarah'],
  ['you rename yourself', event(ANNA, 'user_renamed', { user_id: ANNA, old_nickname: 'Anna', new_nickname: 'Annie' }), 'You are now Annie', 'Du heter nu Annie'],

  ['an unknown event with a text', event(ERIK, 'pinned' as EventType, {}, 'Erik pinned a message'), 'Erik pinned a message', 'Erik pinned a message'],
  ['an unknown event without one', event(ERIK, undefined), 'The chat was updated', 'Chatten uppdaterades'],
];

describe('system messages (spec §3 event types), with the reader as "you" in the right case', () => {
  for (const [what, message, english, swedish] of CASES) {
    it(`${what}: “${english}” / “${swedish}”`, () => {
      expect(eventText(message, conversation, ANNA, en)).toBe(english);
      expect(eventText(message, conversation, ANNA, sv)).toBe(swedish);
    });
  }

  it('never says a capitalised "You" after the first word, nor "Du" as an object', () => {
    for (const [, message] of CASES) {
      expect(eventText(message, conversation, ANNA, en)).not.toMatch(/.\bYou\b/);
      expect(eventText(message, conversation, ANNA, sv)).not.toMatch(/.\bDu\b|\bdu\b/);
    }
  });

  it('names by the name the event carries, else the member list, else "Someone"', () => {
    // Olle was removed and is no longer listed: the event carries his name.
    expect(eventText(event(9, 'user_removed', { user_id: OLLE, name: 'Olle' }), conversation, ANNA, en)).toBe('Someone removed Olle');
    expect(eventText(event(9, 'user_removed', { user_id: OLLE, name: 'Olle' }), conversation, ANNA, sv)).toBe('Någon tog bort Olle');
    expect(eventText(event(ERIK, 'user_removed', { user_id: SARA }), conversation, ANNA, en)).toBe('Erik removed Sara');
    expect(eventText(event(ERIK, 'user_removed', { user_id: OLLE }), conversation, ANNA, en)).toBe('Erik removed someone');
    // The carried name is the first added person's: another listed first is named from the members.
    expect(eventText(event(ERIK, 'user_added', { user_id: OLLE, user_ids: [SARA, OLLE], name: 'Olle' }), conversation, ANNA, en)).toBe(
      'Erik added Sara and one other',
    );
  });

  it('tells system lines from bubbles', () => {
    expect(isEventMessage(event(ERIK, 'conversation_renamed'))).toBe(true);
    expect(isEventMessage({ ...event(ERIK, 'conversation_renamed'), type: 'text' })).toBe(true);
    expect(isEventMessage({ ...event(ERIK, undefined), type: 'text' })).toBe(false);
    expect(isEventMessage({ type: 'text', attachment: null } as Message)).toBe(false);
  });
});
