import { beforeAll, describe, expect, it } from 'vitest';
import type { TFunction } from 'i18next';
import type { Attachment, Conversation, EventType, Message } from '../../../src/protocol/entities';
import { eventText } from '../../../src/ui/chat/message/eventText';
import { createI18n } from '../../../src/ui/i18n';

const member = (id: number, nickname: string) => ({ user: { id, user_id: id, nickname }, is_admin: false });
const conversation = { users: [member(1, 'Anna'), member(2, 'Erik'), member(3, 'Sara')] } as unknown as Conversation;
const event = (user_id: number, event_type: EventType, e: Attachment['event']): Message =>
  ({ id: 1, user_id, type: 'system', message: '', attachment: { type: 'event', event_type, event: e } }) as Message;

let en: TFunction;
let sv: TFunction;
beforeAll(async () => {
  en = (await createI18n('en')).t;
  sv = (await createI18n('sv')).t;
});

describe('system messages (spec §3 event types)', () => {
  it('words every event type in English, with "You" for the signed-in user', () => {
    const text = (m: Message) => eventText(m, conversation, 1, en);
    expect(text(event(2, 'conversation_renamed', { name: 'Readers' }))).toBe('Erik renamed the group to “Readers”');
    expect(text(event(1, 'conversation_renamed', { name: 'Readers' }))).toBe('You renamed the group to “Readers”');
    expect(text(event(2, 'conversation_description_changed', { description: 'Books' }))).toBe(
      'Erik changed the description to “Books”',
    );
    expect(text(event(2, 'conversation_description_changed', { description: '' }))).toBe('Erik removed the description');
    expect(text(event(2, 'conversation_picture_change', {}))).toBe('Erik changed the group picture');
    expect(text(event(2, 'user_added', { user_id: 3, user_ids: [3], name: 'Sara' }))).toBe('Erik added Sara');
    expect(text(event(2, 'user_added', { user_id: 3, user_ids: [3, 4, 5], name: 'Sara' }))).toBe(
      'Erik added Sara and 2 others',
    );
    expect(text(event(2, 'user_added', { user_id: 1, user_ids: [1] }))).toBe('Erik added You');
    expect(text(event(2, 'user_removed', { user_id: 3, name: 'Sara' }))).toBe('Erik removed Sara');
    expect(text(event(2, 'user_removed', { user_id: 1 }))).toBe('Erik removed you');
    expect(text(event(3, 'user_removed', { user_id: 3, name: 'Sara' }))).toBe('Sara left');
    expect(text(event(1, 'user_removed', { user_id: 1 }))).toBe('You left');
    expect(text(event(3, 'user_renamed', { user_id: 3, old_nickname: 'Sara', new_nickname: 'Sarah' }))).toBe(
      'Sara is now Sarah',
    );
  });

  it('words them in Swedish too', () => {
    const text = (m: Message) => eventText(m, conversation, 1, sv);
    expect(text(event(2, 'conversation_renamed', { name: 'Läsare' }))).toBe('Erik döpte om gruppen till ”Läsare”');
    expect(text(event(2, 'user_added', { user_id: 3, user_ids: [3], name: 'Sara' }))).toBe('Erik lade till Sara');
    expect(text(event(3, 'user_removed', { user_id: 3, name: 'Sara' }))).toBe('Sara lämnade gruppen');
    expect(text(event(2, 'conversation_picture_change', {}))).toBe('Erik bytte gruppbild');
  });

  it('names someone it does not know by the name the event carries, else "Someone"', () => {
    expect(eventText(event(9, 'user_removed', { user_id: 8, name: 'Olle' }), conversation, 1, en)).toBe(
      'Someone removed Olle',
    );
  });
});
