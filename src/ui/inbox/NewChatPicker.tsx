import { useTranslation } from 'react-i18next';

export type NewChatKind = 'group' | 'private' | 'broadcast';

/** Spec §2 chat creation: the type screen. */
export function NewChatPicker({ onPick, onBack }: { onPick: (kind: NewChatKind) => void; onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <section className="chats-panel" aria-labelledby="new-chat-title">
      <header className="mx-panel-header">
        <button type="button" className="mx-icon-button" onClick={onBack} aria-label={t('common.back')}>
          <span aria-hidden="true">←</span>
        </button>
        <h1 className="mx-panel-header__title" id="new-chat-title">
          {t('inbox.newChat')}
        </h1>
      </header>
      <ul className="mx-options">
        <li>
          <button type="button" className="mx-options__item" onClick={() => onPick('private')}>
            <span className="mx-options__name">{t('inbox.kind.private')}</span>
            <span className="mx-options__hint">{t('inbox.kind.privateHint')}</span>
          </button>
        </li>
        <li>
          <button type="button" className="mx-options__item" onClick={() => onPick('group')}>
            <span className="mx-options__name">{t('inbox.kind.group')}</span>
            <span className="mx-options__hint">{t('inbox.kind.groupHint')}</span>
          </button>
        </li>
        <li>
          <button type="button" className="mx-options__item" onClick={() => onPick('broadcast')}>
            <span className="mx-options__name">{t('inbox.kind.broadcast')}</span>
            <span className="mx-options__hint">{t('inbox.kind.broadcastHint')}</span>
          </button>
        </li>
      </ul>
    </section>
  );
}
