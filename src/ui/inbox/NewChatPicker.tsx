import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { BroadcastIcon, GroupIcon, PersonIcon } from '../common/icons';

export type NewChatKind = 'group' | 'private' | 'broadcast';

const KINDS: readonly { kind: NewChatKind; icon: ReactNode }[] = [
  { kind: 'private', icon: <PersonIcon /> },
  { kind: 'group', icon: <GroupIcon /> },
  { kind: 'broadcast', icon: <BroadcastIcon /> },
];

/** Spec §2 chat creation: the type screen, each type with its icon and a line saying what it is. */
export function NewChatPicker({ onPick, onBack }: { onPick: (kind: NewChatKind) => void; onBack: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <section className="chats-panel" aria-labelledby={`${id}-title`}>
      <header className="mx-panel-header">
        <button type="button" className="mx-icon-button" onClick={onBack} aria-label={t('common.back')}>
          <span aria-hidden="true">←</span>
        </button>
        <h1 className="mx-panel-header__title" id={`${id}-title`}>
          {t('inbox.newChat')}
        </h1>
      </header>
      <ul className="mx-options">
        {KINDS.map(({ kind, icon }) => (
          <li key={kind}>
            <button
              type="button"
              className="mx-options__item new-chat-kind"
              onClick={() => onPick(kind)}
              aria-labelledby={`${id}-${kind}-name`}
              aria-describedby={`${id}-${kind}-hint`}
            >
              <span className="new-chat-kind__icon">{icon}</span>
              <span className="new-chat-kind__text">
                <span className="mx-options__name" id={`${id}-${kind}-name`}>
                  {t(`inbox.kind.${kind}`)}
                </span>
                <span className="mx-options__hint" id={`${id}-${kind}-hint`}>
                  {t(`inbox.kind.${kind}Hint`)}
                </span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
