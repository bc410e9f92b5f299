import { type ReactNode, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from './Modal';

/**
 * A modal confirmation: Cancel (focused first, the safe choice) and one confirm button. While `busy` the
 * confirm button waits; `error` shows inline (spec §8) and the dialog stays open.
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
  const id = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal labelledBy={`${id}-title`} describedBy={`${id}-text`} initialFocus={cancelRef} onClose={onCancel}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p id={`${id}-text`}>{text}</p>
      {props.children}
      {error ? (
        <p className="modal__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="modal__actions">
        <button ref={cancelRef} type="button" className="mx-button" onClick={onCancel}>
          {t('common.cancel')}
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
    </Modal>
  );
}
