import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../common/errorText';

/**
 * An action asked for, then confirmed in a dialog: `pending` names what waits for the confirmation,
 * `busy` is true while it runs, and a refusal stays in `error` (spec §8 text) with the dialog open.
 * `run` does the action; what it returns runs once the dialog closed (e.g. leaving the panel).
 */
export function useConfirmed<K extends string>(run: (what: K) => Promise<(() => void) | void>) {
  const { t } = useTranslation();
  const [pending, setPending] = useState<K | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ask = (what: K) => {
    setError(null);
    setPending(what);
  };
  const confirm = async () => {
    if (pending === null) return;
    setBusy(true);
    setError(null);
    try {
      const after = await run(pending);
      setPending(null);
      after?.();
    } catch (failure) {
      setError(errorText(failure, t));
    } finally {
      setBusy(false);
    }
  };
  const cancel = () => setPending(null);
  /** What the confirmation dialog takes besides its texts. */
  const dialog = { busy, error, onConfirm: () => void confirm(), onCancel: cancel };
  return { pending, ask, cancel, dialog };
}
