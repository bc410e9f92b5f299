import { defer, filter, finalize, map, type Observable, Subject } from 'rxjs';
import type { Message } from '../../protocol/entities';
import type { NotificationRequest } from '../api';
import { type AppSettings, isMuted, notificationBody, type NotifyPermission, shouldNotify } from '../rules';
import type { EngineState } from '../state/types';
import type { TabRegistry } from '../tabs/tabs';

export interface NotifierOptions {
  settings: () => AppSettings;
  /** Now in ms (a mute ends by time). */
  now: () => number;
  state: () => EngineState;
  tabs: TabRegistry;
}

/** Incoming messages to notifications (spec §3 settings, design.md §4): each one goes to exactly one tab. */
export class Notifier {
  private readonly notify$ = new Subject<{ tabId: string; request: NotificationRequest }>();
  private permission: NotifyPermission = 'default';
  /**
   * Subscriptions to `notifications` by tab: a tab that just loaded reports its state before its page
   * subscribes, and a notification sent to it then would be lost, so only listening tabs are chosen.
   */
  private readonly listening = new Map<string, number>();

  constructor(private readonly options: NotifierOptions) {}

  notifications(tabId: string): Observable<NotificationRequest> {
    return defer(() => {
      this.listening.set(tabId, (this.listening.get(tabId) ?? 0) + 1);
      return this.notify$.pipe(
        filter((n) => n.tabId === tabId),
        map((n) => n.request),
        finalize(() => {
          const count = (this.listening.get(tabId) ?? 1) - 1;
          if (count > 0) this.listening.set(tabId, count);
          else this.listening.delete(tabId);
        }),
      );
    });
  }

  setPermission(permission: NotifyPermission): void {
    this.permission = permission;
  }

  /** A message came in: ask one tab to show it, unless the rules say it is not wanted. */
  incoming(conversationId: number, message: Message): void {
    const { tabs } = this.options;
    const settings = this.options.settings();
    const state = this.options.state();
    if (
      !shouldNotify({
        message,
        selfId: state.selfId,
        settings,
        permission: this.permission,
        openVisibleFocused: tabs.inView(conversationId),
        muted: isMuted(state.conversations[conversationId]?.member.mute, this.options.now()),
      })
    ) {
      return;
    }
    const tabId = tabs.notificationTarget((id) => this.listening.has(id));
    if (tabId === null) return;
    const conversation = state.conversations[conversationId];
    this.notify$.next({
      tabId,
      request: {
        conversationId,
        messageId: message.id,
        title: conversation?.name ?? '',
        body: settings.notificationsShowPreview ? notificationBody(message.message) : '',
        playSound: settings.incomingMessagesSound,
      },
    });
  }
}
