import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../common/Modal';

/**
 * Asks before a typed-in group form is thrown away (spec §2 chat creation). Focus starts on "Keep
 * editing" (the safe choice); Escape or a press outside keeps editing, and focus goes back to the
 * button that asked.
 */
export function DiscardDialog({ onDiscard, onKeep }: { onDiscard: () => void; onKeep: () => void }) {
  const { t } = useTranslation();
  const keepRef = useRef<HTMLButtonElement>(null);
  const textId = useId();
  return (
    <Modal labelledBy={textId} initialFocus={keepRef} onClose={onKeep}>
      <p id={textId}>{t('inbox.form.discardConfirm')}</p>
      <div className="modal__actions">
        <button ref={keepRef} type="button" className="mx-button" onClick={onKeep}>
          {t('inbox.form.keepEditing')}
        </button>
        <button type="button" className="mx-button mx-button--danger" onClick={onDiscard}>
          {t('inbox.form.discard')}
        </button>
      </div>
    </Modal>
  );
}
