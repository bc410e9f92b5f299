import type { TabState } from '../contract/types';

/**
 * Every connected tab's state (which chat it shows, whether it is visible and focused). The engine asks
 * it which conversations count as "open" and which one tab should show a notification.
 */
export class TabRegistry {
  private readonly tabs = new Map<string, TabState & { focusedAt: number }>();

  set(tabId: string, state: TabState, now: number): void {
    const previous = this.tabs.get(tabId);
    const focusedAt = state.focused ? now : (previous?.focusedAt ?? 0);
    this.tabs.set(tabId, { ...state, focusedAt });
  }

  remove(tabId: string): void {
    this.tabs.delete(tabId);
  }

  /** Whether the tab last said it was visible (false for a tab it does not know). */
  isVisible(tabId: string): boolean {
    return this.tabs.get(tabId)?.visible ?? false;
  }

  /** Conversations shown in a visible tab: their new messages are read as they arrive (spec §4). */
  openConversations(): Set<number> {
    const open = new Set<number>();
    for (const t of this.tabs.values()) if (t.visible && t.openConversationId !== null) open.add(t.openConversationId);
    return open;
  }

  /**
   * Conversations shown in a tab that reads them as its reader sees them (`readsAsSeen`), visible or not: while
   * one has unread messages, showing, opening or a new message does not read it (docs/ui.md).
   */
  readAsSeen(): Set<number> {
    const shown = new Set<number>();
    for (const t of this.tabs.values()) if (t.readsAsSeen === true && t.openConversationId !== null) shown.add(t.openConversationId);
    return shown;
  }

  /** Whether the conversation is in front of the user: open in a visible, focused tab (design.md §4). */
  inView(conversationId: number): boolean {
    for (const t of this.tabs.values()) {
      if (t.visible && t.focused && t.openConversationId === conversationId) return true;
    }
    return false;
  }

  /**
   * The one tab that shows a notification: the most recently focused, so it reaches the window in use;
   * with `listening`, only among the tabs it accepts.
   */
  notificationTarget(listening: (tabId: string) => boolean = () => true): string | null {
    let best: string | null = null;
    let bestAt = -1;
    for (const [id, t] of this.tabs) {
      if (t.focusedAt > bestAt && listening(id)) {
        best = id;
        bestAt = t.focusedAt;
      }
    }
    return best;
  }
}
