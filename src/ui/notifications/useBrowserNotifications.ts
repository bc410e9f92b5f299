import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { NotificationRequest } from '../../engine/api';
import { inSentence } from '../common/bidi';
import { useEngine } from '../hooks/EngineContext';
import { playChime } from './sound';

/** The body, with a group's sender before it (issue 23: "Erik: Hej Sara", as the chats list says it). */
export function notificationText(request: Pick<NotificationRequest, 'body' | 'sender'>, t: TFunction): string {
  return request.sender && request.body ? t('notifications.from', { name: inSentence(request.sender), text: request.body }) : request.body;
}

/** Spec §9: a notification closes itself after 3 s. */
export const NOTIFICATION_AUTO_CLOSE_MS = 3000;

/**
 * Shows the notifications the engine sends this tab (one tab per message, design.md §4): only with the
 * browser's permission, with the sound when asked, closing after 3 s; a click focuses the window and
 * opens the chat. The engine has already truncated the body to 100 characters.
 */
export function useBrowserNotifications(): void {
  const engine = useEngine();
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    const show = (request: NotificationRequest) => {
      if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
      if (request.playSound) playChime();
      try {
        const notification = new Notification(request.title || t('notifications.newMessage'), {
          body: notificationText(request, t),
          // One per chat: a newer message replaces the older one of the same chat instead of piling up.
          tag: `conversation-${request.conversationId}`,
        });
        const timer = setTimeout(() => notification.close(), NOTIFICATION_AUTO_CLOSE_MS);
        notification.onclick = () => {
          clearTimeout(timer);
          window.focus();
          notification.close();
          void navigate({ to: '/inbox/$conversationId', params: { conversationId: String(request.conversationId) } });
        };
      } catch (error) {
        console.warn('notification failed', error);
      }
    };
    const subscription = engine.notifications(engine.tabId).subscribe({
      next: show,
      error: (error: unknown) => console.warn('notifications stream failed', error),
    });
    return () => subscription.unsubscribe();
  }, [engine, navigate, t]);
}
