import { filter, finalize, map, Observable, Subject } from 'rxjs';
import type { Message } from '../../protocol/entities';
import type { NotificationRequest } from '../contract/types';
import type { AppSettings, NotifyPermission } from '../contract/types';
import { groupSenderName, isMuted, notificationBody, shouldNotify } from '../rules';
import type { EngineState } from '../state/types';
import type { TabRegistry } from '../tabs/tabs';

/**
 * How long a notification waits for a tab to listen when none does: a tab that just signed in or reloaded
 * subscribes only once its main screen has loaded (a chunk of its own, issue 11), and a message that came
 * in meanwhile would otherwise never be shown.
 */
export const HOLD_MS = 10_000;
/** At most this many wait (the newest). */
const HOLD_MAX = 20;

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
  /** Notifications that came while no tab listened, for the first tab that does (`HOLD_MS`). */
  private held: { at: number; request: NotificationRequest }[] = [];

  constructor(private readonly options: NotifierOptions) {}

  notifications(tabId: string): Observable<NotificationRequest> {
    // An Observable of its own rather than `defer` + `startWith`: the tab counts as listening from the moment
    // it subscribes until it leaves, also while the held ones are handed over (which come before the live ones).
    return new Observable<NotificationRequest>((subscriber) => {
      this.listening.set(tabId, (this.listening.get(tabId) ?? 0) + 1);
      const since = this.options.now() - HOLD_MS;
      const held = this.held.filter((h) => h.at >= since).map((h) => h.request);
      this.held = [];
      // Subscribed first, so leaving while the held ones are handed over still counts this tab out.
      const live = this.notify$
        .pipe(
          filter((n) => n.tabId === tabId),
          map((n) => n.request),
          finalize(() => {
            const count = (this.listening.get(tabId) ?? 1) - 1;
            if (count > 0) this.listening.set(tabId, count);
            else this.listening.delete(tabId);
          }),
        )
        .subscribe({
          next: (request) => subscriber.next(request),
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        });
      for (const request of held) subscriber.next(request);
      return live;
    });
  }

  setNotificationPermission(permission: NotifyPermission): void {
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
    const conversation = state.conversations[conversationId];
    const request: NotificationRequest = {
      conversationId,
      messageId: message.id,
      title: conversation?.name ?? '',
      body: settings.notificationsShowPreview ? notificationBody(message.message) : '',
      // Who wrote is part of the preview: with previews off the notification says only the chat's name.
      sender: settings.notificationsShowPreview ? groupSenderName(message, state.selfId, conversation) : null,
      playSound: settings.incomingMessagesSound,
    };
    const tabId = tabs.notificationTarget((id) => this.listening.has(id));
    if (tabId === null) this.held = [...this.held, { at: this.options.now(), request }].slice(-HOLD_MAX);
    else this.notify$.next({ tabId, request });
  }
}
