import { type ReactNode, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal confirmation for the chat settings (native <dialog> opened with showModal: the page behind is
 * inert and focus stays inside). Escape and a click outside the box cancel; focus goes back to the
 * control that opened it. While `busy` the confirm button waits; `error` shows inline (spec §8).
 */
export function ConfirmDialog(props: {
  title: string;
  text: string;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  error?: string | null;
  onConfirm: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  const { title, text, confirmLabel, danger = true, busy = false, error = null, onConfirm, onCancel } = props;
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="cs-dialog"
      aria-modal="true"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onKeyDown={(event) => {
        // Escape closes this dialog only, not the panel behind it.
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
      onClick={(event) => {
        // The dialog element itself is hit only on its backdrop: its content fills the box.
        if (event.target === event.currentTarget) onCancel();
      }}
    >
      <div className="cs-dialog__box">
        <h2 id={`${id}-title`} className="cs-dialog__title">
          {title}
        </h2>
        <p id={`${id}-text`}>{text}</p>
        {props.children}
        {error ? (
          <p className="cs-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="cs-dialog__actions">
          <button type="button" className="mx-button" onClick={onCancel} autoFocus>
            {t('chatSettings.cancel')}
          </button>
          <button
            type="button"
            className={`mx-button ${danger ? 'mx-button--danger' : 'mx-button--primary'}`}
            onClick={onConfirm}
            disabled={busy}
            aria-busy={busy || undefined}
          >
            {confirmLabel}
          </button>
        </div>
      </div>
    </dialog>
  );
}
