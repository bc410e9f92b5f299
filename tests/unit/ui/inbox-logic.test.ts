import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationListItem, LastMessagePreview } from '../../../src/engine/api';
import type { Conversation, Country, EventType } from '../../../src/protocol/entities';
import { filtersFor, visibleConversations } from '../../../src/ui/inbox/filters';
import { checkRows, groupNameError } from '../../../src/ui/inbox/memberRows';
import { hitSender } from '../../../src/ui/inbox/messageHit';
import { memberPhone } from '../../../src/ui/inbox/phone';
import { draftLine, previewText, rowTime } from '../../../src/ui/inbox/preview';
import { createI18n } from '../../../src/ui/i18n';
import { idParamOf, leftViewOf, sectionOf } from '../../../src/ui/main/leftView';

let en: TFunction;
let sv: TFunction;
beforeAll(async () => {
  // Every area: an event's preview is the chat's own sentence (chat.events).
  en = (await createI18n('en')).t;
  sv = (await createI18n('sv')).t;
});

const preview = (patch: Partial<LastMessagePreview>): LastMessagePreview => ({
  messageId: 1,
  userId: 2,
  fromSelf: false,
  text: 'hello',
  type: 'text',
  attachmentType: null,
  eventType: null,
  event: null,
  names: {},
  senderName: null,
  selfId: 1,
  createdAt: '0',
  edited: false,
  deleted: false,
  ...patch,
});

const item = (id: number, patch: Partial<Conversation> = {}, unread = 0): ConversationListItem => ({
  conversation: { id, name: `Chat ${id}`, is_group: false, community_id: null, group_type: 'normal', ...patch } as Conversation,
  unreadCount: unread,
  isUnread: unread > 0,
  preview: null,
  sortTime: 0,
});

describe('the left view follows the URL (spec §2)', () => {
  it('maps every main-screen path to its view and menu section', () => {
    expect(leftViewOf('/')).toBe('chats');
    expect(leftViewOf('/inbox')).toBe('chats');
    expect(leftViewOf('/inbox/12')).toBe('chats');
    expect(leftViewOf('/no/such/page')).toBe('chats');
    expect(leftViewOf('/explore')).toBe('explore');
    expect(leftViewOf('/explore/7')).toBe('community');
    expect(leftViewOf('/explore/999999/')).toBe('community');
    expect(leftViewOf('/explore/7/channels/12')).toBe('channel');
    expect(leftViewOf('/settings/')).toBe('settings');
    expect(leftViewOf('/settings/controls')).toBe('settingsControls');
    expect(leftViewOf('/settings/notifications')).toBe('settingsNotifications');
    expect(leftViewOf('/settings/help')).toBe('settingsHelp');
    expect(leftViewOf('/profile')).toBe('account');
    expect(sectionOf('account')).toBe('settings');
    expect(sectionOf('explore')).toBe('communities');
    expect(sectionOf('community')).toBe('communities');
    expect(sectionOf('channel')).toBe('communities');
  });

  it('reads only positive integer chat ids', () => {
    expect(idParamOf('42')).toBe(42);
    expect(idParamOf(undefined)).toBeNull();
    expect(idParamOf('0')).toBeNull();
    expect(idParamOf('4x')).toBeNull();
    expect(idParamOf('-3')).toBeNull();
  });
});

describe('filters and search', () => {
  const list = [
    item(1, { name: 'Book Club', is_group: true }, 2),
    item(2, { name: 'erik' }),
    item(3, { name: 'Kopi Channel', is_group: true, community_id: 9, group_type: 'channel' }, 1),
  ];

  it('offers Communities and Groups only where communities are allowed', () => {
    expect(filtersFor(false)).toEqual(['all', 'unread']);
    expect(filtersFor(true)).toEqual(['all', 'unread', 'communities', 'groups']);
  });

  it('keeps the engine order and filters by tab, then by name in any case', () => {
    expect(visibleConversations(list, 'all', '')).toBe(list);
    expect(visibleConversations(list, 'unread', '').map((i) => i.conversation.id)).toEqual([1, 3]);
    expect(visibleConversations(list, 'communities', '').map((i) => i.conversation.id)).toEqual([3]);
    expect(visibleConversations(list, 'groups', '').map((i) => i.conversation.id)).toEqual([1]);
    expect(visibleConversations(list, 'all', '  ERIK ').map((i) => i.conversation.id)).toEqual([2]);
    expect(visibleConversations(list, 'unread', 'erik')).toEqual([]);
  });

  it('folds accents and case in the name search as message search does (issue 23)', () => {
    const named = [item(1, { name: 'Södermalm Runners', is_group: true }), item(2, { name: 'Kafé Ærø' }), item(3, { name: 'Sara' })];
    const ids = (query: string) => visibleConversations(named, 'all', query).map((i) => i.conversation.id);
    expect(ids('soder')).toEqual([1]);
    expect(ids('Söder')).toEqual([1]);
    expect(ids('SÖDERMALM R')).toEqual([1]);
    expect(ids('kafe aero')).toEqual([2]);
    expect(ids('Kafé')).toEqual([2]);
    expect(ids('sö')).toEqual([1]);
  });
});

describe('message search hits', () => {
  it('name the user’s own messages "You", in the user’s language (issue 23)', () => {
    expect(hitSender({ fromSelf: true, senderName: 'Anna' }, en('chat.you'))).toBe('You');
    expect(hitSender({ fromSelf: true, senderName: 'Anna' }, sv('chat.you'))).toBe('Du');
    expect(hitSender({ fromSelf: false, senderName: 'Sara' }, en('chat.you'))).toBe('Sara');
    expect(hitSender({ fromSelf: false, senderName: '' }, en('chat.you'))).toBe('');
  });
});

describe('row previews in the user language', () => {
  it('prefixes own messages and words attachments and events', () => {
    expect(previewText(preview({ fromSelf: true, text: 'hi' }), en)).toBe('You: hi');
    expect(previewText(preview({ fromSelf: true, text: 'hej' }), sv)).toBe('Du: hej');
    expect(previewText(preview({ text: '', attachmentType: 'image' }), en)).toBe('Photo');
    expect(previewText(preview({ text: 'look', attachmentType: 'video' }), sv)).toBe('Video: look');
    expect(previewText(preview({ text: '', attachmentType: 'file', fromSelf: true }), en)).toBe('You: File');
    expect(previewText(preview({ text: 'https://a.example', attachmentType: 'link' }), en)).toBe('https://a.example');
    expect(previewText(null, en)).toBe('No messages yet');
  });

  it('says a last message deleted for everybody was deleted, in both languages', () => {
    const gone = { text: '', deleted: true };
    expect(previewText(preview(gone), en)).toBe('This message was deleted');
    expect(previewText(preview(gone), sv)).toBe('Det här meddelandet har raderats');
    expect(previewText(preview({ ...gone, fromSelf: true }), en)).toBe('You deleted this message');
    expect(previewText(preview({ ...gone, fromSelf: true }), sv)).toBe('Du raderade det här meddelandet');
    expect(previewText(preview({ ...gone, senderName: 'Erik' }), en)).toBe('Erik: This message was deleted');
    expect(previewText(preview({ ...gone, senderName: 'Erik' }), sv)).toBe('Erik: Det här meddelandet har raderats');
  });

  it("names a group's sender before the text (issue 23), in both languages", () => {
    expect(previewText(preview({ senderName: 'Erik', text: 'Hej Sara' }), en)).toBe('Erik: Hej Sara');
    expect(previewText(preview({ senderName: 'Erik', text: '', attachmentType: 'image' }), sv)).toBe('Erik: Foto');
    // Own messages stay "You:"; a one-to-one chat's (no sender name) stays bare.
    expect(previewText(preview({ senderName: null, fromSelf: true, text: 'hej' }), sv)).toBe('Du: hej');
    expect(previewText(preview({ text: 'hej' }), sv)).toBe('hej');
    // A name cannot turn the app's sentence around.
    expect(previewText(preview({ senderName: '\u202eEve', text: 'x' }), en)).toBe('Eve: x');
    expect(draftLine('  two\n lines ')).toBe('two lines');
    expect(draftLine(undefined)).toBe('');
  });

  it('says an event as the chat does, with the reader as "you" (not "A member was removed")', () => {
    // Anna (1) reads; names come with the preview, as a group's row has no member list.
    const names = { 1: 'Anna', 2: 'Erik', 3: 'Sara' };
    const event = (userId: number, eventType: EventType, e: LastMessagePreview['event']) =>
      preview({ userId, fromSelf: userId === 1, type: 'system', attachmentType: 'event', eventType, event: e, names, text: '' });
    const cases: [LastMessagePreview, string, string][] = [
      [event(1, 'user_removed', { user_id: 3 }), 'You removed Sara', 'Du tog bort Sara'],
      [event(2, 'user_removed', { user_id: 1 }), 'Erik removed you', 'Erik tog bort dig'],
      [event(2, 'user_removed', { user_id: 3, name: 'Sara' }), 'Erik removed Sara', 'Erik tog bort Sara'],
      [event(3, 'user_removed', { user_id: 3 }), 'Sara left', 'Sara lämnade gruppen'],
      [event(2, 'user_added', { user_id: 1, user_ids: [1] }), 'Erik added you', 'Erik lade till dig'],
      [event(1, 'user_added', { user_id: 3, user_ids: [3, 4] }), 'You added Sara and one other', 'Du lade till Sara och en person till'],
      [event(2, 'conversation_renamed', { name: 'Readers' }), 'Erik renamed the group to “Readers”', 'Erik döpte om gruppen till ”Readers”'],
      [event(1, 'conversation_description_changed', { description: '' }), 'You removed the description', 'Du tog bort beskrivningen'],
      [event(2, 'conversation_picture_change', {}), 'Erik changed the group picture', 'Erik bytte gruppbild'],
      [event(3, 'user_renamed', { user_id: 3, old_nickname: 'Sara', new_nickname: 'Sarah' }), 'Sara is now Sarah', 'Sara heter nu Sarah'],
      // No "You:" before an own event: the sentence already says who.
      [event(1, 'user_renamed', { user_id: 1, old_nickname: 'Anna', new_nickname: 'Annie' }), 'You are now Annie', 'Du heter nu Annie'],
    ];
    for (const [p, english, swedish] of cases) {
      expect(previewText(p, en)).toBe(english);
      expect(previewText(p, sv)).toBe(swedish);
    }
    // Someone the row knows nothing of.
    expect(previewText({ ...event(9, 'user_removed', { user_id: 8 }), names: {} }, en)).toBe('Someone removed someone');
    // A system message without an event type keeps its text.
    expect(previewText(preview({ type: 'system', text: 'Welcome' }), en)).toBe('Welcome');
    expect(previewText(preview({ type: 'system', text: '' }), sv)).toBe('Gruppändring');
  });

  it('shows the clock today, Yesterday, else a short date', () => {
    const now = new Date(2026, 4, 20, 15, 0);
    const at = (d: Date) => String(Math.floor(d.getTime() / 1000));
    expect(rowTime(at(new Date(2026, 4, 20, 9, 5)), now, 'en', en)).toBe('09:05');
    expect(rowTime(at(new Date(2026, 4, 19, 23, 59)), now, 'sv', sv)).toBe('Igår');
    expect(rowTime(at(new Date(2026, 2, 3, 10, 0)), now, 'en', en)).toBe('Mar 3');
    expect(rowTime(at(new Date(2025, 2, 3, 10, 0)), now, 'en', en)).toBe('Mar 3, 2025');
    expect(rowTime('0', now, 'en', en)).toBe('');
  });
});

describe('the new chat forms (spec §5 member rows)', () => {
  const sweden = {
    validation: '^0?7[02369]\\d{7}$',
    validation_abroad: '^\\+467[02369]\\d{7}$',
  } as Country;

  it('accepts national and international numbers of the user country', () => {
    expect(memberPhone('070-123 45 67', sweden)).toBe('0701234567');
    expect(memberPhone('+46 70 123 45 67', sweden)).toBe('+46701234567');
    expect(memberPhone('0046701234567', sweden)).toBe('+46701234567');
    expect(memberPhone('12345', sweden)).toBeNull();
    expect(memberPhone('0701234567', undefined)).toBeNull();
  });

  it('ignores empty rows and reports half rows, short names and bad numbers', () => {
    const result = checkRows(
      [
        { id: 1, name: 'Erik', phone: '0701234567' },
        { id: 2, name: '', phone: '' },
        { id: 3, name: 'Sara', phone: '' },
        { id: 4, name: '', phone: '0701234568' },
        { id: 5, name: 'S', phone: '123' },
      ],
      sweden,
    );
    expect(result.members).toEqual([{ name: 'Erik', value: '0701234567' }]);
    expect(result.errors).toEqual({
      3: { phone: 'inbox.form.phoneRequired' },
      4: { name: 'inbox.form.nameRequired' },
      5: { name: 'inbox.form.nameTooShort', phone: 'inbox.form.phoneInvalid' },
    });
    expect(result.noMembers).toBe(false);
    expect(checkRows([{ id: 1, name: ' ', phone: '' }], sweden).noMembers).toBe(true);
  });

  it('holds group names to 2..50 characters', () => {
    expect(groupNameError('  ')).toBe('inbox.form.groupNameRequired');
    expect(groupNameError('A')).toBe('inbox.form.nameTooShort');
    expect(groupNameError('x'.repeat(50))).toBeNull();
    expect(groupNameError('x'.repeat(51))).toBe('inbox.form.nameTooLong');
  });
});
