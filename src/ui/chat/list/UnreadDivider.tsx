import { useChatTexts } from '../ChatContext';

/**
 * The band above the first message that was unread when the chat opened: "34 unread messages" (docs/ui.md,
 * "Opening at the first unread message"). The count is the one at opening; it stays while the chat is open.
 */
export function UnreadDivider({ count }: { count: number }) {
  const { t } = useChatTexts();
  return (
    <div className="chat-unread" role="separator" aria-label={t('chat.list.unread', { count })}>
      <span aria-hidden="true">{t('chat.list.unread', { count })}</span>
    </div>
  );
}
