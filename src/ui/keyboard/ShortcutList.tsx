import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../common/Modal';
import { SHORTCUTS } from './shortcuts';
import './keyboard.css';

/** The list of keyboard shortcuts (`?`, issue 23): a dialog that Escape, its button or the backdrop closes. */
export function ShortcutList({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={titleId} initialFocus={closeRef} onClose={onClose} className="shortcut-list">
      <h2 id={titleId} className="shortcut-list__title">
        {t('shortcuts.title')}
      </h2>
      <dl className="shortcut-list__table">
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.text} className="shortcut-list__row">
            <dt>
              {shortcut.keys.map((combo, i) => (
                <span key={combo}>
                  {i > 0 ? <span className="shortcut-list__or"> {t('shortcuts.or')} </span> : null}
                  <kbd>{combo}</kbd>
                </span>
              ))}
            </dt>
            <dd>{t(shortcut.text)}</dd>
          </div>
        ))}
      </dl>
      <div className="shortcut-list__actions">
        <button ref={closeRef} type="button" className="mx-button mx-button--primary" onClick={onClose}>
          {t('shortcuts.done')}
        </button>
      </div>
    </Modal>
  );
}
