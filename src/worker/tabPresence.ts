import type { NotifyPermission, TabState } from '../engine/api';

export interface PresenceSink {
  setTabState(state: TabState): void;
  setNotificationPermission(permission: NotifyPermission): void;
}

const currentPermission = (): NotifyPermission =>
  typeof Notification === 'undefined' ? 'denied' : (Notification.permission as NotifyPermission);

/**
 * What this tab tells the engine about itself (design.md §3, §4): visible, focused, which chat is open,
 * and the notification permission. Reported at once, on every change, and again to each new connection
 * (a reconnect or a new leader starts without it).
 */
export class TabPresence {
  private openConversationId: number | null = null;

  constructor(private readonly sink: PresenceSink) {}

  start(): void {
    const report = () => this.report();
    document.addEventListener('visibilitychange', report);
    window.addEventListener('focus', report);
    window.addEventListener('blur', report);
    // The permission can change in the site settings without a prompt from us.
    void navigator.permissions
      ?.query({ name: 'notifications' })
      .then((status) => status.addEventListener('change', () => this.reportPermission()))
      .catch(() => undefined);
  }

  state(): TabState {
    return {
      visible: document.visibilityState === 'visible',
      focused: document.hasFocus(),
      openConversationId: this.openConversationId,
      languages: [...navigator.languages],
      // The app marks what its reader sees (useMarkVisible): a chat it shows is read that way (docs/ui.md).
      readsAsSeen: true,
    };
  }

  setOpenConversation(conversationId: number | null): void {
    if (conversationId === this.openConversationId) return;
    this.openConversationId = conversationId;
    this.report();
  }

  /** Everything again: for a new connection to the engine. */
  reportAll(): void {
    this.report();
    this.reportPermission();
  }

  report(): void {
    this.sink.setTabState(this.state());
  }

  reportPermission(): void {
    this.sink.setNotificationPermission(currentPermission());
  }
}
