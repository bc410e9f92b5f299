import { filter, map, type Observable, Subject } from 'rxjs';
import type { Message } from '../protocol/entities';
import type { NotificationRequest } from './api';
import { type AppSettings, notificationBody, type NotifyPermission, shouldNotify } from './rules';
import type { EngineState } from './state/types';
import type { TabRegistry } from './tabs';

export interface NotifierOptions {
  settings: () => AppSettings;
  state: () => EngineState;
  tabs: TabRegistry;
}

/** Incoming messages to notifications (spec §3 settings, design.md §4): each one goes to exactly one tab. */
export class Notifier {
  private readonly notify$ = new Subject<{ tabId: string; request: NotificationRequest }>();
  private permission: NotifyPermission = 'default';

  constructor(private readonly options: NotifierOptions) {}

  notifications(tabId: string): Observable<NotificationRequest> {
    return this.notify$.pipe(
      filter((n) => n.tabId === tabId),
      map((n) => n.request),
    );
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
      })
    ) {
      return;
    }
    const tabId = tabs.notificationTarget();
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
