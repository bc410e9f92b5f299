import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationListItem, LastMessagePreview } from '../../../src/engine/api';
import type { Conversation, Country } from '../../../src/protocol/entities';
import { filtersFor, visibleConversations } from '../../../src/ui/inbox/filters';
import { checkRows, groupNameError } from '../../../src/ui/inbox/memberRows';
import { memberPhone } from '../../../src/ui/inbox/phone';
import { previewText, rowTime } from '../../../src/ui/inbox/preview';
import { idParamOf, leftViewOf, sectionOf } from '../../../src/ui/main/leftView';
import enInbox from '../../../src/locales/en/inbox.json';
import svInbox from '../../../src/locales/sv/inbox.json';

let en: TFunction;
let sv: TFunction;
beforeAll(async () => {
  const make = async (lng: string, inbox: object) => {
    const instance = i18next.createInstance();
    await instance.init({ lng, resources: { [lng]: { translation: { inbox } } }, interpolation: { escapeValue: false } });
    return instance.t;
  };
  en = await make('en', enInbox);
  sv = await make('sv', svInbox);
});

const preview = (patch: Partial<LastMessagePreview>): LastMessagePreview => ({
  messageId: 1,
  userId: 2,
  fromSelf: false,
  text: 'hello',
  type: 'text',
  attachmentType: null,
  eventType: null,
  createdAt: '0',
  edited: false,
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

  it('words each of the six event types', () => {
    const events = [
      'conversation_renamed',
      'conversation_description_changed',
      'user_removed',
      'user_added',
      'user_renamed',
      'conversation_picture_change',
    ] as const;
    const texts = events.map((eventType) =>
      previewText(preview({ type: 'system', attachmentType: 'event', eventType, text: '' }), en),
    );
    expect(texts).toEqual([
      'The group was renamed',
      'The group description was changed',
      'A member was removed',
      'A member was added',
      'A member changed their name',
      'The group picture was changed',
    ]);
    expect(previewText(preview({ attachmentType: 'event', eventType: 'user_added', text: '' }), sv)).toBe(
      'En medlem lades till',
    );
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
