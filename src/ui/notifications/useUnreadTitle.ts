import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { type ConversationListItem, isMuted } from '../../engine/api';
import { useNow } from '../hooks/useNow';
import { useQuery } from '../hooks/useQuery';

const NONE: readonly ConversationListItem[] = [];

/** Chats with unread messages that are not muted (docs/ui.md: a muted chat stays quiet here too). */
export function unreadChats(list: readonly ConversationListItem[], now: number): number {
  let count = 0;
  for (const item of list) if (item.isUnread && !isMuted(item.conversation.member?.mute, now)) count += 1;
  return count;
}

/** "(3) Messenger", or the plain name when nothing is unread. */
export function unreadTitle(count: number, appName: string): string {
  return count > 0 ? `(${count}) ${appName}` : appName;
}

type BadgeNavigator = Navigator & { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

function setBadge(count: number): void {
  const nav = navigator as BadgeNavigator;
  // The Badging API is there in Chromium (it shows on the installed app's icon); elsewhere nothing is done.
  // A refusal (not installed, no permission) changes nothing the user could act on.
  const done = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.();
  done?.catch(() => undefined);
}

/**
 * The unread count in the tab's title and the installed app's badge (issue 23). Every tab computes it
 * from the engine's one list, so all open tabs agree and the badge, set by each, ends at the same number.
 * Leaving the signed-in screens (logout) puts the plain title back and clears the badge.
 */
export function useUnreadTitle(): void {
  const { t } = useTranslation();
  const list = useQuery((engine) => engine.conversations(), [], NONE);
  // A timed mute that ends turns its chat's unread back on without a new message.
  const now = useNow();
  const count = unreadChats(list, now.getTime());
  const appName = t('common.appName');
  useEffect(() => {
    document.title = unreadTitle(count, appName);
    setBadge(count);
  }, [count, appName]);
  useEffect(
    () => () => {
      document.title = appName;
      setBadge(0);
    },
    [appName],
  );
}
