import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionView } from '../../engine/api';
import type { Country } from '../../protocol/entities';
import { useEngine } from '../hooks/EngineContext';
import { errorText } from './errorText';
import type { LoginState } from './loginState';
import { formatPhone } from './phone';
import { codeFromPin, pinFromCode } from './pin';
import { PinBoxes } from './PinBoxes';

/**
 * Spec §4 PIN step: four boxes that submit themselves when full; a wrong PIN clears them and focuses the
 * first; back to the phone step clears the PIN; a new code can be requested.
 */
export function PinStep({
  state,
  update,
  country,
  onSignedIn,
  Heading,
}: {
  state: LoginState;
  update: (patch: Partial<LoginState>) => void;
  country: Country | undefined;
  onSignedIn: (session: SessionView) => void;
  Heading: 'h1' | 'h2';
}) {
  const { t } = useTranslation();
  const engine = useEngine();
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // The fourth digit and Enter can both ask to confirm before React re-renders: one request only.
  const confirming = useRef(false);
  const ids = { error: useId(), intro: useId() };
  const pin = pinFromCode(state.pinCode);
  // Non-breaking spaces: the number never wraps over two lines.
  const phone = formatPhone(state.phoneNumber, country).replace(/ /g, '\u00a0');

  // The first empty box takes the focus when the step opens (after a reload too).
  useEffect(() => {
    const first = pin.findIndex((d) => d === '');
    inputs.current[first === -1 ? 0 : first]?.focus();
  }, []); // Only when the step opens.

  async function confirm(code: string) {
    if (confirming.current) return;
    confirming.current = true;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const session = await engine.confirmPin(state.phoneNumber, code);
      onSignedIn(session);
    } catch (failure) {
      setError(errorText(failure, t, t('login.invalidPinCode'), t('login.networkError')));
      update({ pinCode: '' });
      setBusy(false);
      inputs.current[0]?.focus();
    } finally {
      confirming.current = false;
    }
  }

  const changed = (next: string[]) => {
    setError(null);
    update({ pinCode: codeFromPin(next) });
    if (next.every((d) => d !== '')) void confirm(next.join(''));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pin.every((d) => d !== '')) void confirm(pin.join(''));
    else inputs.current[pin.findIndex((d) => d === '')]?.focus();
  };

  async function resend() {
    setError(null);
    setNotice(null);
    update({ pinCode: '' });
    try {
      await engine.requestPin(state.phoneNumber);
      setNotice(t('login.pin.resent', { phone }));
    } catch (failure) {
      setError(errorText(failure, t, t('login.failedToSendPin'), t('login.failedToSendPinRetry')));
    }
    inputs.current[0]?.focus();
  }

  return (
    <form className="login-form" onSubmit={submit} noValidate>
      <Heading className="login-heading">{t('login.pin.heading')}</Heading>
      <p className="login-intro" id={ids.intro}>
        {t('login.pin.sentTo', { phone })}
      </p>
      <PinBoxes
        pin={pin}
        onChange={changed}
        inputs={inputs}
        readOnly={busy}
        invalid={error !== null}
        describedBy={error ? `${ids.intro} ${ids.error}` : ids.intro}
      />
      <p className="login-error" id={ids.error} role="alert">
        {error ?? ''}
      </p>
      <p className="login-status" role="status">
        {busy ? t('login.pin.checking') : (notice ?? '')}
      </p>
      <div className="login-actions">
        <button type="button" className="login-secondary" onClick={() => update({ step: 'phone', pinCode: '' })}>
          {t('login.pin.back')}
        </button>
        <button type="button" className="login-link" onClick={() => void resend()} disabled={busy}>
          {t('login.pin.resend')}
        </button>
      </div>
    </form>
  );
}
