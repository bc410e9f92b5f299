import { describe, expect, it } from 'vitest';
import type { NotificationRequest } from '../../../src/engine/api';
import { HOLD_MS, Notifier } from '../../../src/engine/notifications/notifier';
import type { AppSettings } from '../../../src/engine/api';
import { DEFAULT_APP_SETTINGS } from '../../../src/engine/rules';
import { TabRegistry } from '../../../src/engine/tabs/tabs';
import type { Conversation } from '../../../src/protocol/entities';
import { conversation, loadedState, message, SELF } from './state.fixtures';

/** The engine's notification decisions (issue 3, design.md §4): once per message, to exactly one tab. */
const NOW = 1_700_100_000_000;

function setup(settings: Partial<AppSettings> = {}, extra: Conversation[] = []) {
  const tabs = new TabRegistry();
  const state = loadedState(extra);
  let now = NOW;
  const notifier = new Notifier({
    settings: () => ({ ...DEFAULT_APP_SETTINGS, ...settings }),
    state: () => state,
    tabs,
    now: () => now,
  });
  notifier.setNotificationPermission('granted');
  const received = new Map<string, NotificationRequest[]>();
  const listen = (tabId: string) => {
    received.set(tabId, []);
    notifier.notifications(tabId).subscribe((r) => received.get(tabId)?.push(r));
  };
  for (const id of ['a', 'b', 'c']) listen(id);
  // Tab a was focused first, then c, then b; all of them show the list now.
  tabs.set('a', { visible: true, focused: true, openConversationId: null }, 1);
  tabs.set('c', { visible: true, focused: true, openConversationId: null }, 2);
  tabs.set('b', { visible: true, focused: true, openConversationId: null }, 3);
  tabs.set('a', { visible: true, focused: false, openConversationId: null }, 4);
  tabs.set('c', { visible: false, focused: false, openConversationId: null }, 5);
  const all = () => [...received.values()].flat();
  const advance = (ms: number) => {
    now += ms;
  };
  return { tabs, notifier, received, all, advance };
}

describe('Notifier', () => {
  it('asks exactly one tab, the one focused most recently, with the chat name, the text and sound', () => {
    const { notifier, received, all } = setup();
    notifier.incoming(10, message(4, { message: '  Hej där  ' }));
    expect(all()).toHaveLength(1);
    expect(received.get('b')).toEqual([
      { conversationId: 10, messageId: 4, title: 'chat 10', body: 'Hej där', sender: 'user 2', playSound: true },
    ]);
  });

  it("names a group's sender (issue 23), not a one-to-one chat's, and not when previews are off", () => {
    const { notifier, received } = setup({}, [conversation(12, { is_group: false })]);
    notifier.incoming(12, message(4, { conversation_id: 12 }));
    expect(received.get('b')).toEqual([expect.objectContaining({ messageId: 4, sender: null })]);
    const quiet = setup({ notificationsShowPreview: false });
    quiet.notifier.incoming(10, message(5));
    expect(quiet.received.get('b')).toEqual([expect.objectContaining({ messageId: 5, body: '', sender: null })]);
  });

  it('sends an empty body when previews are off, and no sound when sound is off', () => {
    const { notifier, received } = setup({ notificationsShowPreview: false, incomingMessagesSound: false });
    notifier.incoming(10, message(4));
    expect(received.get('b')).toEqual([expect.objectContaining({ messageId: 4, body: '', playSound: false })]);
  });

  it('asks nothing for the user’s own message', () => {
    const { notifier, all } = setup();
    notifier.incoming(10, message(4, { user_id: SELF }));
    expect(all()).toEqual([]);
  });

  it('asks nothing while the chat is open in a visible, focused tab, but does when that tab is hidden or unfocused', () => {
    const { tabs, notifier, all, received } = setup();
    tabs.set('a', { visible: true, focused: true, openConversationId: 10 }, 6);
    notifier.incoming(10, message(4));
    expect(all()).toEqual([]);

    // Another chat's message goes to that same tab, the most recently focused one now.
    notifier.incoming(11, message(5, { conversation_id: 11 }));
    expect(received.get('a')).toEqual([expect.objectContaining({ conversationId: 11, messageId: 5 })]);

    tabs.set('a', { visible: true, focused: false, openConversationId: 10 }, 7);
    notifier.incoming(10, message(6));
    expect(received.get('a')?.map((r) => r.messageId)).toEqual([5, 6]);
    expect(all()).toHaveLength(2);
  });

  it('asks nothing when notifications are off or not permitted', () => {
    const off = setup({ notificationsEnable: false });
    off.notifier.incoming(10, message(4));
    expect(off.all()).toEqual([]);

    const denied = setup();
    denied.notifier.setNotificationPermission('denied');
    denied.notifier.incoming(10, message(4));
    expect(denied.all()).toEqual([]);
  });

  it('asks nothing for a muted chat until its mute ends, and still notifies the other chats', () => {
    const until = String((NOW + 8 * 3_600_000) / 1000);
    const muted = conversation(11, { member: { is_owner: false, is_admin: false, permissions: { create_posts: false }, mute: { type: '8h', time_zone: 'Europe/Stockholm', until } } });
    const forever = conversation(12, { member: { is_owner: false, is_admin: false, permissions: { create_posts: false }, mute: { type: 'forever', time_zone: 'UTC', until: null } } });
    const { notifier, all, advance } = setup({}, [muted, forever]);
    notifier.incoming(11, message(5, { conversation_id: 11 }));
    notifier.incoming(12, message(6, { conversation_id: 12 }));
    expect(all()).toEqual([]);
    notifier.incoming(10, message(7));
    expect(all().map((r) => r.conversationId)).toEqual([10]);

    advance(8 * 3_600_000);
    notifier.incoming(11, message(8, { conversation_id: 11 }));
    notifier.incoming(12, message(9, { conversation_id: 12 }));
    expect(all().map((r) => r.conversationId)).toEqual([10, 11]);
  });

  it('chooses only among tabs that listen: a tab that reported its state but has not subscribed yet is passed over', () => {
    const { tabs, notifier, received } = setup();
    // Tab d just loaded: focused last, but its page has not subscribed to notifications yet.
    tabs.set('d', { visible: true, focused: true, openConversationId: null }, 10);
    notifier.incoming(10, message(4));
    expect(received.get('b')?.map((r) => r.messageId)).toEqual([4]);

    received.set('d', []);
    const subscription = notifier.notifications('d').subscribe((r) => received.get('d')?.push(r));
    notifier.incoming(10, message(5));
    expect(received.get('d')?.map((r) => r.messageId)).toEqual([5]);
    subscription.unsubscribe();
    notifier.incoming(10, message(6));
    expect(received.get('b')?.map((r) => r.messageId)).toEqual([4, 6]);
  });

  it('holds a notification while no tab listens and gives it to the first tab that does, for 10 s at most', () => {
    const tabs = new TabRegistry();
    const state = loadedState([]);
    let now = NOW;
    const notifier = new Notifier({ settings: () => DEFAULT_APP_SETTINGS, state: () => state, tabs, now: () => now });
    notifier.setNotificationPermission('granted');
    // A tab that signed in reports its state at once, but listens only once its main screen has loaded.
    tabs.set('a', { visible: true, focused: true, openConversationId: null }, 1);
    notifier.incoming(10, message(4));
    now += 300;
    const first: number[] = [];
    notifier.notifications('a').subscribe((r) => first.push(r.messageId));
    expect(first).toEqual([4]);
    // Given once: a second subscriber (another tab, or the same after a reload) does not get it again.
    const again: number[] = [];
    notifier.notifications('a').subscribe((r) => again.push(r.messageId));
    expect(again).toEqual([]);

    const late = new Notifier({ settings: () => DEFAULT_APP_SETTINGS, state: () => state, tabs, now: () => now });
    late.setNotificationPermission('granted');
    late.incoming(10, message(5));
    now += HOLD_MS + 1;
    const tooLate: number[] = [];
    late.notifications('a').subscribe((r) => tooLate.push(r.messageId));
    expect(tooLate).toEqual([]);
  });
});
