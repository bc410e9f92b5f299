import { useEffect, useId, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { trapTab, useDismiss } from '../chat/actions/useDismiss';

/**
 * Asks before a typed-in group form is thrown away (spec §2 chat creation). Modal: focus starts on
 * "Keep editing" (the safe choice) and stays inside; Escape or a press outside keeps editing, and focus
 * goes back to the button that asked (after Escape or a choice; a press outside puts it where it pressed).
 */
export function DiscardDialog({ onDiscard, onKeep }: { onDiscard: () => void; onKeep: () => void }) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const textId = useId();
  useDismiss(true, dialogRef, onKeep);
  useEffect(() => {
    keepRef.current?.focus();
  }, []);
  return createPortal(
    <div className="inbox-backdrop">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={textId}
        className="inbox-dialog"
        onKeyDown={(event) => trapTab(event, dialogRef.current)}
      >
        <p id={textId}>{t('inbox.form.discardConfirm')}</p>
        <div className="inbox-dialog__buttons">
          <button ref={keepRef} type="button" className="mx-button" onClick={onKeep}>
            {t('inbox.form.keepEditing')}
          </button>
          <button type="button" className="mx-button mx-button--danger" onClick={onDiscard}>
            {t('inbox.form.discard')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
