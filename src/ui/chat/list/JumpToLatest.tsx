import { useTranslation } from 'react-i18next';

/** Shown when the reader is more than 500 px above the bottom; counts the messages that came meanwhile. */
export function JumpToLatest({ count, onJump }: { count: number; onJump: () => void }) {
  const { t } = useTranslation();
  const label = count > 0 ? t('chat.list.jumpToLatestNew', { count }) : t('chat.list.jumpToLatest');
  return (
    <button type="button" className="chat-jump" onClick={onJump} aria-label={label}>
      <span aria-hidden="true">↓</span>
      {count > 0 ? <span className="chat-jump-count">{count}</span> : null}
      <span className="chat-jump-text">{t('chat.list.jumpToLatest')}</span>
    </button>
  );
}
