import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal confirmation (native <dialog>: focus is kept inside and Escape cancels); a click on the
 * backdrop, outside the box, cancels too.
 */
export function ConfirmDialog({
  title,
  text,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  title: string;
  text: string;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClick={(event) => {
        // The dialog element itself is hit only on its backdrop: its content fills the box.
        if (event.target === event.currentTarget) onCancel();
      }}
    >
      <div className="confirm-dialog__box">
        <h2 id={`${id}-title`}>{title}</h2>
        <p id={`${id}-text`}>{text}</p>
        <div className="confirm-dialog__actions">
          <button type="button" className="mx-button" onClick={onCancel} autoFocus>
            {t('common.cancel')}
          </button>
          <button type="button" className="mx-button mx-button--danger" onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
