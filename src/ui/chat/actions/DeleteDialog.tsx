import { type RefObject, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { errorText } from './errorText';
import { trapTab, useDismiss } from './useDismiss';

/**
 * The delete dialog (spec §2): delete for everybody and/or for me, as allowed, or cancel. Modal: focus
 * stays inside; Escape or a press outside closes it and focus goes back to the message's menu button.
 * A refusal shows the engine's message and keeps the dialog open.
 */
export function DeleteDialog(props: {
  forEverybody: (() => Promise<unknown>) | null;
  forMe: (() => Promise<unknown>) | null;
  returnFocus: RefObject<HTMLElement | null>;
  onClose: () => void;
}) {
  const { forEverybody, forMe, returnFocus, onClose } = props;
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  useDismiss(true, dialogRef, onClose, { returnFocus });

  const cancelRef = useRef<HTMLButtonElement>(null);
  // The safe choice takes focus first: an Enter pressed by habit must not delete anything.
  useEffect(() => {
    cancelRef.current?.focus();
  }, []);

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(null);
    try {
      await action();
      onClose();
    } catch (error) {
      setProblem(errorText(error, t));
      setBusy(false);
    }
  };

  return createPortal(
    <div className="action-backdrop">
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={bodyId}
        className="action-dialog"
        onKeyDown={(event) => trapTab(event, dialogRef.current)}
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id={titleId}>{t('chatActions.deleteDialog.title')}</h2>
        <p id={bodyId}>
          {forEverybody && forMe
            ? t('chatActions.deleteDialog.body')
            : forMe
              ? t('chatActions.deleteDialog.bodyForMe')
              : t('chatActions.deleteDialog.bodyForEverybody')}
        </p>
        {problem ? (
          <p role="alert" className="action-error">
            {problem}
          </p>
        ) : null}
        <div className="action-dialog-buttons">
          {forEverybody ? (
            <button type="button" className="action-danger" disabled={busy} onClick={() => void run(forEverybody)}>
              {t('chatActions.deleteDialog.forEverybody')}
            </button>
          ) : null}
          {forMe ? (
            <button type="button" className="action-danger-outline" disabled={busy} onClick={() => void run(forMe)}>
              {t('chatActions.deleteDialog.forMe')}
            </button>
          ) : null}
          <button ref={cancelRef} type="button" className="action-secondary" onClick={onClose}>
            {t('common.cancel')}
          </button>
        </div>
      </div>
    </div>,
    document.body,
  );
}
