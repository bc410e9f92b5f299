import { type RefObject, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../common/Modal';
import { errorText } from '../../common/errorText';

/**
 * The delete dialog (spec §2): delete for everybody and/or for me, as allowed, or cancel. Escape or a
 * press outside closes it and focus goes back to the message's menu button.
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
  const titleId = useId();
  const bodyId = useId();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  // The safe choice takes focus first: an Enter pressed by habit must not delete anything.
  const cancelRef = useRef<HTMLButtonElement>(null);

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

  return (
    <Modal
      labelledBy={titleId}
      describedBy={bodyId}
      initialFocus={cancelRef}
      returnFocus={returnFocus}
      onClose={onClose}
      className="action-dialog"
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
    </Modal>
  );
}
