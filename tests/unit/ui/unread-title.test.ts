import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ConversationListItem } from '../../../src/engine/api';
import type { Conversation } from '../../../src/protocol/entities';
import { createI18n } from '../../../src/ui/i18n';
import { notificationText } from '../../../src/ui/notifications/useBrowserNotifications';
import { unreadChats, unreadTitle } from '../../../src/ui/notifications/useUnreadTitle';

const NOW = 1_700_000_000_000;
const item = (id: number, unread: number, mute: Conversation['member']['mute'] = null): ConversationListItem => ({
  conversation: { id, member: { mute } } as Conversation,
  unreadCount: unread,
  isUnread: unread > 0,
  preview: null,
  sortTime: 0,
});

describe('the unread count of the title and badge (issue 23)', () => {
  it('counts chats, not messages, and leaves out muted chats until their mute ends', () => {
    const later = String(NOW / 1000 + 3600);
    const earlier = String(NOW / 1000 - 60);
    const list = [
      item(1, 5),
      item(2, 1),
      item(3, 0),
      item(4, 2, { type: 'forever', time_zone: 'UTC', until: null }),
      item(5, 2, { type: '1h', time_zone: 'UTC', until: later }),
      item(6, 1, { type: '1h', time_zone: 'UTC', until: earlier }),
    ];
    expect(unreadChats(list, NOW)).toBe(3);
    expect(unreadTitle(3, 'Messenger')).toBe('(3) Messenger');
    expect(unreadTitle(0, 'Messenger')).toBe('Messenger');
  });
});

describe('notification bodies (issue 23)', () => {
  let en: TFunction;
  let sv: TFunction;
  beforeAll(async () => {
    en = (await createI18n('en')).t;
    sv = (await createI18n('sv')).t;
  });

  it("put a group's sender before the text, and nothing when previews are off", () => {
    expect(notificationText({ body: 'Hej Sara', sender: 'Erik' }, en)).toBe('Erik: Hej Sara');
    expect(notificationText({ body: 'Hej Sara', sender: 'Erik' }, sv)).toBe('Erik: Hej Sara');
    expect(notificationText({ body: 'Hej', sender: null }, en)).toBe('Hej');
    expect(notificationText({ body: '', sender: null }, en)).toBe('');
    expect(notificationText({ body: 'x', sender: '\u202eEve' }, en)).toBe('Eve: x');
  });
});
